import '../character-texts';
import '../texts';
import { useState } from 'react';
import type { BotDetail } from '@reverie/shared';
import { useTranslation } from '../../../lib/i18n';
import { EditCharacterDialog, isOwnCharacter, isUnpublished } from './edit-character-dialog';

/**
 * What the author sees of a public character's review on its page: waiting, or rejected with
 * the administrator's reason and a way to edit it (which sends it back to the review queue);
 * of a character an administrator unpublished (private and rejected): that it is no longer
 * public, why, and "Make public again" (the edit dialog with public chosen: it goes back to
 * the review). Nothing for anyone else, nor for an approved or other private character.
 */
export function OwnCharacterReview({ bot, viewer }: { bot: BotDetail | undefined; viewer: string }) {
  const { t } = useTranslation();
  const [editing, setEditing] = useState(false);
  const [hidden, setHidden] = useState(false);
  if (!isOwnCharacter(bot, viewer) || bot.review_state === 'approved') return null;
  const rejected = bot.review_state === 'rejected';
  const unpublished = isUnpublished(bot);
  if (bot.visibility !== 'public' && !unpublished) return null;
  const title = unpublished ? 'unpublished_title' : rejected ? 'rejected_title' : 'pending_title';
  const hint = unpublished ? 'unpublished_hint' : rejected ? 'rejected_hint' : 'pending_hint';
  return (
    <>
      {!hidden && (
        <div
          role="status"
          className={`fixed inset-x-3 top-16 z-30 mx-auto max-w-xl rounded-2xl border p-4 text-sm shadow-xl backdrop-blur ${
            rejected ? 'border-red-400/40 bg-red-950/80 text-red-50' : 'border-amber-400/30 bg-surface/95'
          }`}
          data-testid="own-character-review"
        >
          <p className="font-semibold">{t(`characters.review.${title}`, { name: bot.name })}</p>
          {rejected && bot.review_reason && (
            <p className="mt-1 break-words whitespace-pre-wrap" data-testid="own-character-review-reason">
              {t('characters.review.reason', { reason: bot.review_reason })}
            </p>
          )}
          <p className="mt-1 text-xs opacity-80">{t(`characters.review.${hint}`)}</p>
          <div className="mt-3 flex flex-wrap gap-2">
            {rejected && (
              <button
                type="button"
                onClick={() => setEditing(true)}
                className="rounded-full bg-primary px-4 py-1.5 font-semibold text-on-primary"
              >
                {t(unpublished ? 'characters.review.make_public' : 'characters.review.edit')}
              </button>
            )}
            <button
              type="button"
              onClick={() => setHidden(true)}
              className="rounded-full border border-white/20 px-4 py-1.5"
            >
              {t('app.close')}
            </button>
          </div>
        </div>
      )}
      {editing && (
        <EditCharacterDialog
          bot={bot}
          initialVisibility={unpublished ? 'public' : undefined}
          onClose={() => setEditing(false)}
        />
      )}
    </>
  );
}
