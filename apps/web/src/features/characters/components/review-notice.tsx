import '../catalogue-texts';
import '../texts';
import { useState, type FormEvent } from 'react';
import type { BotDetail } from '@reverie/shared';
import { showAlert } from '../../../components/ui/alerts';
import {
  CharacterBasics,
  checkCharacterBasics,
  type CharacterBasicsValue,
} from '../../../components/ui/character-basics';
import { Modal } from '../../../components/ui/modal';
import { ApiRequestError } from '../../../lib/api-client';
import { useTranslation } from '../../../lib/i18n';
import { useUpdateBot } from '../api/update-bot';
import { basicsMessages, CharacterStoryFields } from './character-story-fields';

/** The author edits their character's texts; saving a rejected one sends it back to the review. */
function EditCharacterModal({ bot, onClose }: { bot: BotDetail; onClose: () => void }) {
  const { t } = useTranslation();
  const update = useUpdateBot(bot.slug);
  const [basics, setBasics] = useState<CharacterBasicsValue>({
    name: bot.name,
    age: String(bot.age),
    description: bot.description,
  });
  const [greeting, setGreeting] = useState(bot.greeting);
  const [scenario, setScenario] = useState(bot.scenario);
  const [errors, setErrors] = useState<Partial<Record<string, string>>>({});
  const submit = (event: FormEvent) => {
    event.preventDefault();
    const found = checkCharacterBasics(basics, basicsMessages(t));
    setErrors(found);
    if (Object.keys(found).length) return;
    update.mutate(
      { name: basics.name.trim(), age: Number(basics.age), description: basics.description, greeting, scenario },
      {
        onSuccess: (saved) => {
          showAlert(t(saved.review_state === 'pending' ? 'characters.review.resubmitted' : 'characters.review.saved'), {
            type: 'success',
          });
          onClose();
        },
        onError: (error) => {
          if (error instanceof ApiRequestError && Object.keys(error.fieldErrors).length)
            return setErrors(Object.fromEntries(Object.entries(error.fieldErrors).map(([k, v]) => [k, v[0]])));
          showAlert(error.message, { type: 'error' });
        },
      },
    );
  };
  return (
    <Modal open onClose={onClose} title={t('characters.review.edit_title', { name: bot.name })}>
      <form onSubmit={submit} noValidate className="flex flex-col gap-4" data-testid="edit-character-form">
        <CharacterBasics
          value={basics}
          onChange={(field, value) => setBasics((current) => ({ ...current, [field]: value }))}
          labels={{
            name: t('create_character.name'),
            age: t('create_character.age'),
            description: t('create_character.description'),
          }}
          errors={errors}
        />
        <CharacterStoryFields
          greeting={greeting}
          scenario={scenario}
          errors={errors}
          onChange={(field, value) => (field === 'greeting' ? setGreeting : setScenario)(value)}
        />
        <button
          type="submit"
          disabled={update.isPending}
          className="rounded-full bg-primary px-6 py-3 font-semibold text-on-primary disabled:opacity-50"
        >
          {t('characters.review.save')}
        </button>
      </form>
    </Modal>
  );
}

/**
 * What the author sees of a public character's review on its page: waiting, or rejected with
 * the administrator's reason and a way to edit it (which sends it back to the review queue);
 * of a character an administrator unpublished (private and rejected): that it is no longer
 * public, and why. Nothing for anyone else, nor for an approved or other private character.
 */
export function OwnCharacterReview({ bot, viewer }: { bot: BotDetail | undefined; viewer: string }) {
  const { t } = useTranslation();
  const [editing, setEditing] = useState(false);
  const [hidden, setHidden] = useState(false);
  if (!bot || bot.author_id !== viewer || bot.review_state === 'approved') return null;
  const rejected = bot.review_state === 'rejected';
  const unpublished = rejected && bot.visibility !== 'public';
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
            {rejected && !unpublished && (
              <button
                type="button"
                onClick={() => setEditing(true)}
                className="rounded-full bg-primary px-4 py-1.5 font-semibold text-on-primary"
              >
                {t('characters.review.edit')}
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
      {editing && <EditCharacterModal bot={bot} onClose={() => setEditing(false)} />}
    </>
  );
}
