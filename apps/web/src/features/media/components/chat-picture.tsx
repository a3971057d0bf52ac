import { useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from '../../../lib/i18n';
import { Eye, Loader2 } from 'lucide-react';
import { MessageKind, UNBLUR_COST, type Message } from '@reverie/shared';
import { useModal } from '../../../lib/modals';
import { showAlert } from '../../../components/ui/alerts';
import { Icon } from '../../../components/ui/icon';
import { Modal } from '../../../components/ui/modal';
import { ApiRequestError } from '../../../lib/api-client';
import { mediaSrc } from '../../../lib/media';
import { readProfile, setProfileData, useProfile } from '../../../lib/profile';
import { waitForDesires } from '../../../lib/waiting-action';
import { useUnblurImage } from '../api/unblur-image';
import '../texts';

export interface ChatPictureProps {
  /** A picture message (kind 2 Image or 3 BlurImage); in a group chat its speaker is the character who sent it. */
  message: Pick<Message, 'id' | 'kind' | 'img_url'> & Partial<Pick<Message, 'speaker'>>;
  /** Called once a picture is unblurred, with the original's URL (to update a cached history). */
  onUnblurred?: (messageId: string, imgUrl: string) => void;
}

/**
 * A character's picture in chat. A blurred one (kind 3) shows the preview with "Unblur for 3
 * desires" ("Unblur" for premium): the balance drops by 3 at once (never below 0), the
 * original replaces the preview, and a 402 opens the buy-desires modal (`?pw=1&from=unblur`),
 * which offers the daily claim first and, once claimed, unblurs the picture by itself.
 * A clear picture opens full-size on click.
 */
export function ChatPicture({ message, onUnblurred }: ChatPictureProps) {
  const { t } = useTranslation();
  const { isPremium } = useProfile();
  const queryClient = useQueryClient();
  const modal = useModal();
  const unblur = useUnblurImage();
  const [unblurred, setUnblurred] = useState<string | null>(null);
  const [fullSize, setFullSize] = useState(false);
  const src = unblurred ?? message.img_url;
  const blurred = message.kind === MessageKind.BlurImage && !unblurred;
  // A group chat: the picture says whose it is (docs/groups.md).
  const from = message.speaker?.kind === 'character' ? message.speaker.name : null;
  const pictureAlt = from ? t('pictures.picture_from', { name: from }) : t('pictures.picture_alt');
  if (!src) return null;

  const onUnblur = async () => {
    if (unblur.isPending) return;
    const before = readProfile(queryClient)?.num_tokens;
    if (!isPremium) setProfileData(queryClient, (p) => ({ ...p, num_tokens: Math.max(0, p.num_tokens - UNBLUR_COST) }));
    try {
      const result = await unblur.mutateAsync(message.id);
      setProfileData(queryClient, (p) => ({ ...p, num_tokens: result.num_tokens }));
      setUnblurred(result.img_url);
      onUnblurred?.(message.id, result.img_url);
    } catch (error) {
      if (before !== undefined) setProfileData(queryClient, (p) => ({ ...p, num_tokens: before }));
      if (error instanceof ApiRequestError && error.status === 402) {
        // The buy-desires modal offers the free daily claim first; claimed, the picture unblurs.
        waitForDesires({ from: 'unblur', cost: UNBLUR_COST, run: () => void onUnblur() });
        modal.open('pw', { from: 'unblur' });
      } else showAlert(t('pictures.unblur_failed'), { type: 'error' });
    }
  };

  if (blurred) {
    return (
      <div
        className="relative w-64 max-w-full overflow-hidden rounded-2xl border border-white/10 bg-surface"
        data-testid="chat-picture-blurred"
      >
        <img
          src={mediaSrc(src)}
          alt={from ? t('pictures.blurred_from', { name: from }) : t('pictures.blurred_alt')}
          width={256}
          height={341}
          className="block aspect-[3/4] w-full scale-105 object-cover"
          draggable={false}
        />
        <div className="absolute inset-0 flex items-center justify-center bg-black/25 p-4">
          <button
            type="button"
            onClick={() => void onUnblur()}
            disabled={unblur.isPending}
            data-testid="unblur-button"
            className="flex items-center gap-2 rounded-full bg-primary px-4 py-2.5 text-sm font-semibold text-on-primary shadow-lg shadow-primary/30 hover:brightness-110 disabled:opacity-70"
          >
            <Icon
              icon={unblur.isPending ? Loader2 : Eye}
              size="sm"
              className={unblur.isPending ? 'animate-spin' : ''}
            />
            {unblur.isPending
              ? t('pictures.unblurring')
              : isPremium
                ? t('pictures.unblur_premium')
                : t('pictures.unblur', { count: UNBLUR_COST })}
          </button>
        </div>
      </div>
    );
  }

  return (
    <>
      <button
        type="button"
        onClick={() => setFullSize(true)}
        aria-label={t('pictures.open_full')}
        data-testid="chat-picture"
        className="block w-64 max-w-full overflow-hidden rounded-2xl border border-white/10 bg-surface focus-visible:outline-2 focus-visible:outline-primary"
      >
        {/* The API gives no picture size: a fixed 3:4 box (the blurred preview's too) keeps the
            conversation from jumping when the file arrives; the full size opens on click. */}
        <img
          src={mediaSrc(src)}
          alt={pictureAlt}
          width={256}
          height={341}
          className="block aspect-[3/4] h-auto w-full bg-white/5 object-cover"
          loading="lazy"
        />
      </button>
      <Modal open={fullSize} onClose={() => setFullSize(false)} title={t('pictures.full_title')} size="lg">
        <img
          src={mediaSrc(src)}
          alt={pictureAlt}
          className="mx-auto max-h-[80dvh] w-auto rounded-xl object-contain"
          data-testid="chat-picture-full"
        />
      </Modal>
    </>
  );
}
