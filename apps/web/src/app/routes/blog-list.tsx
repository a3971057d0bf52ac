import { Link } from 'react-router';
import { Page, Skeleton } from '../../components/ui/page';
import { useBlogPosts } from '../../features/blog/api/get-blog-posts';
import { currentEdition } from '../../lib/edition';
import { formatDate } from '../../lib/format';
import { currentLocale, useTranslation } from '../../lib/i18n';
import '../../features/blog/texts';

export function Component() {
  const { t } = useTranslation();
  const posts = useBlogPosts();
  const locale = currentLocale();
  const items = posts.data?.pages.flatMap((page) => page.results) ?? [];

  return (
    <Page title={t('blog.title')} subtitle={t('blog.subtitle', { name: currentEdition().name })}>
      {posts.isPending ? (
        <div className="grid gap-4 md:grid-cols-2">
          {Array.from({ length: 4 }, (_, i) => (
            <Skeleton key={i} className="h-40" />
          ))}
        </div>
      ) : posts.isError ? (
        <p className="text-muted">{t('blog.error')}</p>
      ) : items.length === 0 ? (
        <p className="text-muted">{t('blog.empty')}</p>
      ) : (
        <div className="grid gap-4 md:grid-cols-2">
          {items.map((post) => (
            <Link
              key={post.id}
              to={`/blog/${post.id}`}
              className="group flex flex-col gap-3 rounded-3xl border border-white/10 bg-surface p-6 transition hover:border-primary/50"
            >
              <time dateTime={post.published_at} className="text-xs tracking-wide text-muted uppercase">
                {formatDate(post.published_at, locale)}
              </time>
              <h2 className="text-xl font-semibold group-hover:text-primary">{post.title}</h2>
              <p className="text-sm leading-relaxed text-muted">{post.summary}</p>
              <span className="mt-auto text-sm font-semibold text-primary">{t('blog.read_more')} →</span>
            </Link>
          ))}
        </div>
      )}
      {posts.hasNextPage && (
        <div className="mt-8 flex justify-center">
          <button
            type="button"
            disabled={posts.isFetchingNextPage}
            onClick={() => void posts.fetchNextPage()}
            className="rounded-full border border-white/15 px-6 py-2.5 text-sm font-medium hover:bg-white/5 disabled:opacity-50"
          >
            {t('blog.load_more')}
          </button>
        </div>
      )}
    </Page>
  );
}
