import '../../../lib/error-texts';
import '../character-texts';
import '../texts';
import { useState } from 'react';
import { IMAGE_MAX_BYTES, type BotGalleryPicture } from '@reverie/shared';
import { FileButton } from '../../../components/ui/file-button';
import { FormError } from '../../../components/ui/form-error';
import { toApiRequestError } from '../../../lib/api-client';
import { useTranslation } from '../../../lib/i18n';
import { useAddGalleryPicture } from '../api/add-gallery-picture';
import { useDeleteGalleryPicture } from '../api/delete-gallery-picture';
import { useGallery } from '../api/get-gallery';
import { useSetPictureVisibility } from '../api/set-picture-visibility';

/**
 * The author's gallery in the edit dialog (docs/characters.md, "The author's gallery"): each
 * picture with whether it is on the page (public) or sent in chat only (private), add, make
 * private or public, delete after a confirmation. Each action is saved at once (not with the
 * form's button); the server judges every new picture like a photo.
 */
export function GallerySection({ slug }: { slug: string }) {
  const { t } = useTranslation();
  const gallery = useGallery(slug);
  const add = useAddGalleryPicture(slug);
  const visibility = useSetPictureVisibility(slug);
  const remove = useDeleteGalleryPicture(slug);
  const [error, setError] = useState<string | null>(null);
  const [confirming, setConfirming] = useState<string | null>(null);
  const pictures = gallery.data?.results ?? [];
  const full = gallery.data ? pictures.length >= gallery.data.max : true;
  const busy = add.isPending || visibility.isPending || remove.isPending;

  const failed = (cause: unknown) => {
    const apiError = toApiRequestError(cause);
    const known: Record<string, string> = {
      inappropriate_content: 'errors.inappropriate_content',
      gallery_full: 'characters.own_gallery.full',
      rate_limited: 'characters.own_gallery.rate_limited',
      avatar_public: 'characters.own_gallery.avatar_public',
    };
    const key = known[apiError.code ?? ''];
    setError(key ? t(key) : apiError.status === 0 ? t('errors.something_went_wrong') : apiError.message);
  };

  const choose = (file: File) => {
    setError(null);
    if (!file.type.startsWith('image/')) return setError(t('create_character.photo_not_image'));
    if (file.size > IMAGE_MAX_BYTES) return setError(t('create_character.photo_too_big'));
    add.mutate(file, { onError: failed });
  };

  return (
    <section className="flex flex-col gap-2" data-testid="edit-character-gallery" aria-labelledby="gallery-title">
      <div className="flex items-baseline justify-between gap-2">
        <h3 id="gallery-title" className="text-sm font-semibold">
          {t('characters.own_gallery.title')}
        </h3>
        {gallery.data && (
          <span className="text-xs text-muted">
            {t('characters.own_gallery.count', { n: pictures.length, max: gallery.data.max })}
          </span>
        )}
      </div>
      <p className="text-xs text-muted">{t('characters.own_gallery.hint')}</p>
      {gallery.isError && <FormError message={t('errors.something_went_wrong')} />}
      {pictures.length > 0 && (
        <ul className="grid grid-cols-3 gap-2 sm:grid-cols-4">
          {pictures.map((picture) => (
            <GalleryItem
              key={picture.id}
              picture={picture}
              busy={busy}
              confirming={confirming === picture.id}
              onConfirm={(on) => setConfirming(on ? picture.id : null)}
              onVisibility={() => {
                setError(null);
                visibility.mutate(
                  { id: picture.id, visibility: picture.visibility === 'public' ? 'private' : 'public' },
                  { onError: failed },
                );
              }}
              onDelete={() => {
                setError(null);
                remove.mutate(picture.id, { onError: failed, onSettled: () => setConfirming(null) });
              }}
            />
          ))}
        </ul>
      )}
      <FormError message={error} />
      <FileButton
        accept="image/png,image/jpeg,image/webp,image/gif,image/avif"
        onFile={choose}
        label={t(add.isPending ? 'characters.own_gallery.adding' : 'characters.own_gallery.add')}
        disabled={busy || full}
        testId="gallery-add"
        className="self-start rounded-full border border-white/15 px-4 py-2 text-sm disabled:opacity-50"
      />
    </section>
  );
}

function GalleryItem({
  picture,
  busy,
  confirming,
  onConfirm,
  onVisibility,
  onDelete,
}: {
  picture: BotGalleryPicture;
  busy: boolean;
  confirming: boolean;
  onConfirm: (on: boolean) => void;
  onVisibility: () => void;
  onDelete: () => void;
}) {
  const { t } = useTranslation();
  const isPrivate = picture.visibility === 'private';
  const button = 'w-full rounded-full border border-white/15 px-2 py-1 text-xs leading-tight disabled:opacity-50';
  return (
    <li className="flex flex-col gap-1" data-testid="gallery-picture">
      <div className="relative aspect-square overflow-hidden rounded-lg bg-white/5">
        <img src={picture.url} alt="" loading="lazy" className="h-full w-full object-cover" />
        <span className="absolute left-1 top-1 rounded-full bg-black/70 px-2 py-0.5 text-[11px] text-white">
          {t(isPrivate ? 'characters.own_gallery.private' : 'characters.own_gallery.public')}
        </span>
        {picture.explicit && (
          <span className="absolute bottom-1 left-1 rounded-full bg-black/70 px-2 py-0.5 text-[11px] text-white">
            {t('characters.own_gallery.explicit')}
          </span>
        )}
      </div>
      {confirming ? (
        <div className="flex flex-col gap-1" role="group" aria-label={t('characters.own_gallery.delete_question')}>
          <span className="text-xs">{t('characters.own_gallery.delete_question')}</span>
          <button
            type="button"
            disabled={busy}
            onClick={onDelete}
            data-testid="gallery-delete-confirm"
            className="w-full rounded-full bg-red-600 px-2 py-1 text-xs font-semibold text-white disabled:opacity-50"
          >
            {t('characters.own_gallery.delete_confirm')}
          </button>
          <button type="button" onClick={() => onConfirm(false)} className={button}>
            {t('characters.mine.cancel')}
          </button>
        </div>
      ) : (
        <>
          <button type="button" disabled={busy} onClick={onVisibility} className={button}>
            {t(isPrivate ? 'characters.own_gallery.make_public' : 'characters.own_gallery.make_private')}
          </button>
          <button type="button" disabled={busy} onClick={() => onConfirm(true)} className={button}>
            {t('characters.own_gallery.delete')}
          </button>
        </>
      )}
    </li>
  );
}
