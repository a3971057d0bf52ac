import { useState } from 'react';
import { Loader2, Trash2, TriangleAlert } from 'lucide-react';
import type { Transform } from '@reverie/shared';
import { showAlert } from '../../../components/ui/alerts';
import { Icon } from '../../../components/ui/icon';
import { Modal } from '../../../components/ui/modal';
import { formatDate } from '../../../lib/format';
import { currentLocale, useTranslation } from '../../../lib/i18n';
import { useDeleteTransform } from '../api/delete-transform';
import { useTransforms } from '../api/list-transforms';
import { mediaSrc } from '../../../lib/media';

/** The user's past transforms (paid ones), newest first; each opens in the result view or is deleted. */
export function TransformGallery({ onOpen, openId }: { onOpen: (id: string) => void; openId: string | null }) {
  const { t } = useTranslation();
  const list = useTransforms(true);
  const remove = useDeleteTransform();
  const [confirming, setConfirming] = useState<Transform | null>(null);
  const items = (list.data?.results ?? []).filter((item) => item.state !== 'uploaded' && item.state !== 'verified');

  const onDelete = async () => {
    if (!confirming) return;
    try {
      await remove.mutateAsync(confirming.id);
      showAlert(t('transform.deleted'));
    } catch {
      showAlert(t('transform.delete_failed'), { type: 'error' });
    }
    setConfirming(null);
  };

  return (
    <section aria-labelledby="transform-gallery" className="flex flex-col gap-4" data-testid="transform-gallery">
      <h2 id="transform-gallery" className="text-lg font-semibold">
        {t('transform.gallery_title')}
      </h2>
      {items.length === 0 ? (
        <p className="text-sm text-muted">{t('transform.gallery_empty')}</p>
      ) : (
        <ul className="grid grid-cols-2 gap-3 sm:grid-cols-3 lg:grid-cols-4">
          {items.map((item) => (
            <li
              key={item.id}
              className={`overflow-hidden rounded-2xl border bg-surface ${item.id === openId ? 'border-primary' : 'border-white/10'}`}
              data-testid="transform-gallery-item"
            >
              <button
                type="button"
                onClick={() => onOpen(item.id)}
                disabled={item.state !== 'ready'}
                aria-label={t('transform.open_result')}
                className="block aspect-[4/5] w-full bg-white/5"
              >
                {item.state === 'ready' && item.result_url ? (
                  <img src={mediaSrc(item.result_url)} alt="" loading="lazy" className="h-full w-full object-cover" />
                ) : (
                  <span className="flex h-full w-full flex-col items-center justify-center gap-2 p-3 text-center text-sm text-muted">
                    <Icon
                      icon={item.state === 'processing' ? Loader2 : TriangleAlert}
                      size="lg"
                      className={item.state === 'processing' ? 'animate-spin' : 'text-amber-300'}
                    />
                    {item.state === 'processing' ? t('transform.state_processing') : t('transform.state_failed')}
                  </span>
                )}
              </button>
              <div className="flex items-center justify-between gap-2 px-3 py-2">
                <div className="min-w-0">
                  <p className="truncate text-sm font-medium">{t(`transform.styles.${item.style}`)}</p>
                  <p className="text-xs text-muted">{formatDate(item.created_at, currentLocale())}</p>
                </div>
                <button
                  type="button"
                  onClick={() => setConfirming(item)}
                  disabled={item.state === 'processing'}
                  aria-label={t('transform.delete')}
                  className="rounded-full p-2 text-muted hover:bg-white/5 hover:text-red-300 disabled:opacity-40"
                  data-testid="transform-delete"
                >
                  <Icon icon={Trash2} size="sm" />
                </button>
              </div>
            </li>
          ))}
        </ul>
      )}
      <Modal open={Boolean(confirming)} onClose={() => setConfirming(null)} title={t('transform.delete')} size="sm">
        <p className="text-muted">{t('transform.delete_confirm')}</p>
        <div className="mt-6 flex justify-end gap-3">
          <button
            type="button"
            onClick={() => setConfirming(null)}
            className="rounded-full px-5 py-2.5 hover:bg-white/5"
          >
            {t('app.cancel')}
          </button>
          <button
            type="button"
            onClick={() => void onDelete()}
            disabled={remove.isPending}
            className="rounded-full bg-red-500 px-5 py-2.5 font-semibold text-white hover:brightness-110 disabled:opacity-60"
            data-testid="transform-delete-confirm"
          >
            {t('transform.delete')}
          </button>
        </div>
      </Modal>
    </section>
  );
}
