import '../../texts';
import { Link } from 'react-router';
import type { Locale } from '@reverie/shared';
import { Skeleton } from '../../../../components/ui/page';
import { formatDate } from '../../../../lib/format';
import { useTranslation } from '../../../../lib/i18n';
import { useAdminBlogPosts } from '../../api/get-admin-blog-posts';
import { AdminSectionPage } from '../../components/admin-section-heading';
import { Badge, cardClass, ContentList, primaryButton } from '../../components/content-ui';
import type { AdminSectionProps } from '../../sections';
import { BlogEditor } from './blog-editor';

/** `/admin/blog`: every post (drafts and published); `/admin/blog/new` and `/admin/blog/<id>` edit one. */
export function BlogSection({ itemId }: AdminSectionProps) {
  const { t, i18n } = useTranslation();
  const posts = useAdminBlogPosts();
  const locale = i18n.language as Locale;

  if (itemId) {
    if (itemId === 'new') return <BlogEditor key="new" post={null} />;
    if (posts.isPending) return <Skeleton className="h-96" />;
    const post = posts.data?.find((p) => p.id === itemId);
    if (!post) return <p className="text-muted">{t('admin.common.not_found')}</p>;
    return (
      <div className="flex flex-col gap-3">
        <Link to="/admin/blog" className="text-sm text-muted hover:text-fg">
          ← {t('admin.blog.all_posts')}
        </Link>
        <BlogEditor key={post.id} post={post} />
      </div>
    );
  }

  return (
    <AdminSectionPage
      id="blog"
      title={t('admin.blog.title')}
      actions={
        <Link to="/admin/blog/new" className={primaryButton} data-testid="blog-new">
          {t('admin.blog.new')}
        </Link>
      }
    >
      <ContentList
        pending={posts.isPending}
        error={posts.error}
        items={posts.data}
        empty={t('admin.blog.empty')}
        render={(post) => (
          <li key={post.id}>
            <Link
              to={`/admin/blog/${post.id}`}
              className={`${cardClass} flex flex-col gap-1 hover:border-primary/60 sm:flex-row sm:items-center sm:justify-between`}
            >
              <span className="min-w-0">
                <span className="block truncate font-medium">{post.title}</span>
                <span className="block truncate text-xs text-muted">/blog/{post.id}</span>
              </span>
              <span className="flex shrink-0 items-center gap-2 text-xs text-muted">
                <Badge tone={post.is_published ? 'ok' : 'muted'}>
                  {t(post.is_published ? 'admin.blog.state_published' : 'admin.blog.state_draft')}
                </Badge>
                {formatDate(post.published_at ?? post.updated_at, locale)}
              </span>
            </Link>
          </li>
        )}
      />
    </AdminSectionPage>
  );
}

export default BlogSection;
