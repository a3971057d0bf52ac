import '../../texts';
import { useState, type FormEvent } from 'react';
import { useNavigate } from 'react-router';
import { BLOG_ID_PATTERN, BLOG_LIMITS, slugify, type AdminBlogPost, type Locale } from '@reverie/shared';
import { showAlert } from '../../../../components/ui/alerts';
import { FileButton } from '../../../../components/ui/file-button';
import { MarkdownBody } from '../../../../components/ui/markdown';
import { ApiRequestError } from '../../../../lib/api-client';
import { formatDate } from '../../../../lib/format';
import { useTranslation } from '../../../../lib/i18n';
import { usePublishBlogPost } from '../../api/publish-blog-post';
import { useSaveBlogPost } from '../../api/save-blog-post';
import { useUploadBlogCover } from '../../api/upload-blog-cover';
import { Badge, cardClass, inputClass, primaryButton, secondaryButton, TextField } from '../../components/content-ui';

/** A post's address from its title: lower-case Latin letters, digits and single hyphens. */
export const slugOf = (title: string) => slugify(title, 80);

/**
 * Writes or edits a post: the Markdown body beside its live preview (rendered by the same
 * component as the public post page), drafts, publishing, the cover and the SEO fields.
 */
export function BlogEditor({ post }: { post: AdminBlogPost | null }) {
  const { t, i18n } = useTranslation();
  const navigate = useNavigate();
  const save = useSaveBlogPost();
  const publish = usePublishBlogPost();
  const cover = useUploadBlogCover();
  const [current, setCurrent] = useState<AdminBlogPost | null>(post);
  const [id, setId] = useState(post?.id ?? '');
  const [idTouched, setIdTouched] = useState(Boolean(post));
  const [title, setTitle] = useState(post?.title ?? '');
  const [summary, setSummary] = useState(post?.summary ?? '');
  const [body, setBody] = useState(post?.body ?? '');
  const [seoTitle, setSeoTitle] = useState(post?.seo_title ?? '');
  const [seoDescription, setSeoDescription] = useState(post?.seo_description ?? '');
  const [tab, setTab] = useState<'write' | 'preview'>('write');
  const [errors, setErrors] = useState<Record<string, string[]>>({});
  const isNew = !current;
  const locale = i18n.language as Locale;

  const failure = (error: Error) => {
    if (error instanceof ApiRequestError && error.code === 'blog_id_taken')
      return setErrors({ id: [t('admin.blog.id_taken')] });
    if (error instanceof ApiRequestError && Object.keys(error.fieldErrors).length) return setErrors(error.fieldErrors);
    showAlert(error.message, { type: 'error' });
  };

  const submit = (event: FormEvent) => {
    event.preventDefault();
    const found: Record<string, string[]> = {};
    if (isNew && !BLOG_ID_PATTERN.test(id)) found.id = [t('admin.blog.id_format')];
    if (!title.trim()) found.title = [t('validation.required')];
    setErrors(found);
    if (Object.keys(found).length) return;
    save.mutate(
      {
        isNew,
        fields: {
          id,
          title: title.trim(),
          summary,
          body,
          seo_title: seoTitle.trim() || null,
          seo_description: seoDescription.trim() || null,
        },
      },
      {
        onSuccess: (saved) => {
          setCurrent(saved);
          showAlert(t('admin.blog.saved'), { type: 'success' });
          if (isNew) navigate(`/admin/blog/${saved.id}`, { replace: true });
        },
        onError: failure,
      },
    );
  };

  const togglePublished = () => {
    if (!current) return;
    publish.mutate(
      { id: current.id, published: !current.is_published },
      {
        onSuccess: (saved) => {
          setCurrent(saved);
          showAlert(t(saved.is_published ? 'admin.blog.published_now' : 'admin.blog.unpublished_now'), {
            type: 'success',
          });
        },
        onError: failure,
      },
    );
  };

  const uploadCover = (file: File | undefined) => {
    if (!file || !current) return;
    cover.mutate({ id: current.id, file }, { onSuccess: setCurrent, onError: failure });
  };

  const removeCover = () => {
    if (!current) return;
    save.mutate(
      { isNew: false, fields: { id: current.id, remove_cover: true } },
      { onSuccess: setCurrent, onError: failure },
    );
  };

  const tabButton = (value: 'write' | 'preview') =>
    `rounded-full px-4 py-1.5 text-sm ${tab === value ? 'bg-primary text-on-primary' : 'text-muted'}`;

  return (
    <form onSubmit={submit} noValidate className="flex flex-col gap-4" data-testid="blog-editor">
      <div className="flex flex-wrap items-center justify-between gap-3">
        <div className="flex flex-wrap items-center gap-2">
          <h2 className="text-xl font-semibold">{isNew ? t('admin.blog.new') : t('admin.blog.edit')}</h2>
          {current && (
            <Badge tone={current.is_published ? 'ok' : 'muted'}>
              {t(current.is_published ? 'admin.blog.state_published' : 'admin.blog.state_draft')}
            </Badge>
          )}
          {current?.published_at && (
            <span className="text-xs text-muted">{formatDate(current.published_at, locale)}</span>
          )}
        </div>
        <div className="flex flex-wrap gap-2">
          <button type="submit" className={secondaryButton} disabled={save.isPending} data-testid="blog-save">
            {isNew ? t('admin.blog.save_draft') : t('admin.common.save')}
          </button>
          {current && (
            <button
              type="button"
              className={primaryButton}
              onClick={togglePublished}
              disabled={publish.isPending}
              data-testid="blog-publish"
            >
              {t(current.is_published ? 'admin.blog.unpublish' : 'admin.blog.publish')}
            </button>
          )}
        </div>
      </div>

      <div className="grid gap-4 sm:grid-cols-2">
        <TextField
          id="blog-title"
          label={t('admin.blog.title_field')}
          errors={errors.title}
          value={title}
          maxLength={BLOG_LIMITS.title}
          onChange={(value) => {
            setTitle(value);
            if (!idTouched) setId(slugOf(value));
          }}
        />
        <TextField
          id="blog-id"
          label={t('admin.blog.id_field')}
          hint={isNew ? t('admin.blog.id_hint') : `/blog/${id}`}
          errors={errors.id}
          value={id}
          disabled={!isNew}
          maxLength={BLOG_LIMITS.id}
          onChange={(value) => {
            setIdTouched(true);
            setId(value.toLowerCase());
          }}
        />
      </div>
      <TextField
        id="blog-summary"
        label={t('admin.blog.summary')}
        errors={errors.summary}
        value={summary}
        maxLength={BLOG_LIMITS.summary}
        rows={2}
        onChange={setSummary}
      />

      <div className={cardClass}>
        <div role="tablist" className="mb-3 inline-flex gap-1 rounded-full bg-bg p-1 lg:hidden">
          <button
            type="button"
            role="tab"
            aria-selected={tab === 'write'}
            className={tabButton('write')}
            onClick={() => setTab('write')}
          >
            {t('admin.blog.write')}
          </button>
          <button
            type="button"
            role="tab"
            aria-selected={tab === 'preview'}
            className={tabButton('preview')}
            onClick={() => setTab('preview')}
            data-testid="blog-preview-tab"
          >
            {t('admin.blog.preview')}
          </button>
        </div>
        <div className="grid gap-4 lg:grid-cols-2">
          <div className={tab === 'write' ? '' : 'hidden lg:block'}>
            <TextField
              id="blog-body"
              label={t('admin.blog.body')}
              hint={t('admin.blog.body_hint')}
              errors={errors.body}
              value={body}
              maxLength={BLOG_LIMITS.body}
              rows={0}
              onChange={setBody}
              className={`${inputClass} min-h-96 font-mono`}
              testId="blog-body"
            />
          </div>
          <div className={tab === 'preview' ? '' : 'hidden lg:block'}>
            <p className="text-sm font-medium">{t('admin.blog.preview')}</p>
            <article className="mt-1 min-h-96 rounded-xl border border-white/10 bg-bg p-4" data-testid="blog-preview">
              <h1 className="text-2xl font-bold tracking-tight">{title || t('admin.blog.untitled')}</h1>
              <MarkdownBody source={body} className="mt-4" />
            </article>
          </div>
        </div>
      </div>

      <div className={`${cardClass} grid gap-4 sm:grid-cols-2`}>
        <div>
          <p className="text-sm font-medium">{t('admin.blog.cover')}</p>
          {current?.cover_url ? (
            <img src={current.cover_url} alt="" className="mt-2 aspect-[2/1] w-full rounded-xl object-cover" />
          ) : (
            <p className="mt-2 text-xs text-muted">
              {isNew ? t('admin.blog.cover_after_save') : t('admin.blog.no_cover')}
            </p>
          )}
          <div className="mt-2 flex flex-wrap gap-2">
            <FileButton
              className={secondaryButton}
              disabled={!current || cover.isPending}
              accept="image/png,image/jpeg,image/webp"
              label={t('admin.blog.upload_cover')}
              onFile={uploadCover}
            />
            {current?.cover_url && (
              <button type="button" className={secondaryButton} onClick={removeCover}>
                {t('admin.blog.remove_cover')}
              </button>
            )}
          </div>
        </div>
        <div className="flex flex-col gap-3">
          <TextField
            id="blog-seo-title"
            label={t('admin.blog.seo_title')}
            hint={t('admin.blog.seo_title_hint', { left: BLOG_LIMITS.seoTitle - seoTitle.length })}
            errors={errors.seo_title}
            value={seoTitle}
            maxLength={BLOG_LIMITS.seoTitle}
            onChange={setSeoTitle}
          />
          <TextField
            id="blog-seo-description"
            label={t('admin.blog.seo_description')}
            hint={t('admin.blog.seo_description_hint', { left: BLOG_LIMITS.seoDescription - seoDescription.length })}
            errors={errors.seo_description}
            value={seoDescription}
            maxLength={BLOG_LIMITS.seoDescription}
            rows={3}
            onChange={setSeoDescription}
          />
        </div>
      </div>
    </form>
  );
}
