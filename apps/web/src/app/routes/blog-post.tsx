import { Link, useParams } from 'react-router';
import { ArrowLeft } from 'lucide-react';
import { Icon } from '../../components/ui/icon';
import { MarkdownBody } from '../../components/ui/markdown';
import { Skeleton } from '../../components/ui/page';
import { useBlogPost } from '../../features/blog/api/get-blog-post';
import { formatDate } from '../../lib/format';
import { currentLocale, useTranslation } from '../../lib/i18n';
import { ErrorView } from './error-page';
import { useNamedPageTitle } from '../route-meta';
import '../../features/blog/texts';

/** One post, rendered from Markdown (no raw HTML is allowed through). */
export function Component() {
  const { t } = useTranslation();
  const { id = '' } = useParams();
  const post = useBlogPost(id);
  useNamedPageTitle(post.data?.title);

  if (post.isError) return <ErrorView status={post.error.status === 404 ? 404 : 500} />;
  return (
    <article className="mx-auto w-full max-w-3xl px-4 py-8 lg:py-12">
      <Link to="/blog" className="mb-6 inline-flex items-center gap-1.5 text-sm text-muted hover:text-fg">
        <Icon icon={ArrowLeft} size="sm" />
        {t('blog.back_to_blog')}
      </Link>
      {post.isPending ? (
        <div className="flex flex-col gap-4">
          <Skeleton className="h-10 w-3/4" />
          <Skeleton className="h-4 w-40" />
          <Skeleton className="h-64" />
        </div>
      ) : (
        <>
          <h1 className="text-3xl font-bold tracking-tight sm:text-4xl">{post.data.title}</h1>
          <p className="mt-3 text-sm text-muted">
            {t('blog.published', { date: formatDate(post.data.published_at, currentLocale()) })}
          </p>
          <MarkdownBody source={post.data.body} className="mt-8" />
        </>
      )}
    </article>
  );
}
