import '../catalogue-texts';
import '../texts';
import { useState, type FormEvent } from 'react';
import type { BotDetail } from '@reverie/shared';
import { showAlert } from '../../../components/ui/alerts';
import { CharacterBasics, checkCharacterBasics } from '../../../components/ui/character-basics';
import { FormError } from '../../../components/ui/form-error';
import { Modal } from '../../../components/ui/modal';
import { toApiRequestError } from '../../../lib/api-client';
import { useClientConfig } from '../../../lib/client-config';
import { useTranslation } from '../../../lib/i18n';
import { useUpdateBot } from '../api/update-bot';
import { basicsMessages, CharacterStoryFields, useBasicsInput } from './character-story-fields';
import { VisibilityChoice, type Visibility } from './visibility-choice';

type Errors = Partial<Record<string, string>>;

/** The viewer wrote this character (never an official one, nor a persona): they may edit it. */
export const isOwnCharacter = (bot: BotDetail | undefined, viewer: string | null | undefined): bot is BotDetail =>
  Boolean(bot && viewer && bot.kind === 'character' && !bot.is_official && bot.author_id === viewer);

/** An administrator took it out of public view (private and rejected, with the reason). */
export const isUnpublished = (bot: BotDetail) => bot.visibility !== 'public' && bot.review_state === 'rejected';

/**
 * Whether saving with `visibility` sends the character to the review queue (what the server
 * does: a rejected character made or kept public, or a private one made public that was never
 * approved — unless the server approves public characters automatically, `autoApprove`).
 */
export function goesToReview(bot: BotDetail, visibility: Visibility, autoApprove = false): boolean {
  if (visibility !== 'public') return false;
  if (bot.review_state === 'rejected') return true;
  return bot.visibility === 'private' && bot.review_state !== 'approved' && !autoApprove;
}

/** What the hint under the visibility choice says. */
function visibilityHint(bot: BotDetail, visibility: Visibility, autoApprove: boolean): string {
  if (visibility === 'private') return 'hint_private';
  if (isUnpublished(bot)) return 'hint_public_unpublished';
  if (bot.review_state === 'rejected') return 'hint_public_rejected';
  if (bot.review_state === 'approved') return 'hint_public_approved';
  return autoApprove ? 'hint_public_auto' : 'hint_public_review';
}

/** What the success message says, from the character before and after the save. */
function outcome(before: BotDetail, after: BotDetail): string {
  if (after.visibility === 'private') return before.visibility === 'public' ? 'outcome_private' : 'outcome_saved';
  if (after.review_state === 'pending' && (before.visibility !== 'public' || before.review_state !== 'pending'))
    return 'outcome_review';
  if (before.visibility !== 'public') return 'outcome_public';
  return 'outcome_saved';
}

/**
 * The author edits their character (the create form's texts) and chooses whether it is
 * public: the character's page (its menu) and the review notice open it. The server decides
 * the review (PATCH /api/bot/{slug}); the message after saving says what happened. On an
 * error the typed texts stay: the API's field errors show at their fields, others above the
 * button.
 */
export function EditCharacterDialog({
  bot,
  onClose,
  initialVisibility,
}: {
  bot: BotDetail;
  onClose: () => void;
  /** The visibility chosen when the dialog opens (the notice's "Make public again"); else the character's. */
  initialVisibility?: Visibility;
}) {
  const { t } = useTranslation();
  const update = useUpdateBot(bot.slug);
  const [greeting, setGreeting] = useState(bot.greeting);
  const [scenario, setScenario] = useState(bot.scenario);
  const [visibility, setVisibility] = useState<Visibility>(
    initialVisibility ?? (bot.visibility === 'public' ? 'public' : 'private'),
  );
  const [errors, setErrors] = useState<Errors>({});
  const [formError, setFormError] = useState<string | null>(null);
  /** A field the user changes loses its error (the next submit checks again). */
  const edited = (field: string) =>
    setErrors((current) => (current[field] ? { ...current, [field]: undefined } : current));
  const { basics, input: basicsInput } = useBasicsInput(
    {
      name: bot.name,
      age: String(bot.age),
      description: bot.description,
    },
    edited,
  );

  const submit = (event: FormEvent) => {
    event.preventDefault();
    setFormError(null);
    const found = checkCharacterBasics(basics, basicsMessages(t));
    setErrors(found);
    if (Object.keys(found).length) return;
    update.mutate(
      {
        name: basics.name.trim(),
        age: Number(basics.age),
        description: basics.description,
        greeting,
        scenario,
        visibility,
      },
      {
        onSuccess: (saved) => {
          showAlert(t(`characters.edit.${outcome(bot, saved)}`, { name: saved.name }), { type: 'success' });
          onClose();
        },
        onError: (error) => {
          const apiError = toApiRequestError(error);
          const fields = Object.entries(apiError.fieldErrors);
          if (fields.length) return setErrors(Object.fromEntries(fields.map(([field, list]) => [field, list[0]])));
          if (apiError.code === 'inappropriate_content') return setFormError(t('errors.inappropriate_content'));
          setFormError(apiError.status === 0 ? t('errors.something_went_wrong') : apiError.message);
        },
      },
    );
  };

  const autoApprove = useClientConfig().data?.auto_approve_characters === true;
  const review = goesToReview(bot, visibility, autoApprove);
  return (
    <Modal open onClose={onClose} title={t('characters.review.edit_title', { name: bot.name })} size="lg">
      <form onSubmit={submit} noValidate className="flex flex-col gap-4" data-testid="edit-character-form">
        <CharacterBasics {...basicsInput} errors={errors} />
        <CharacterStoryFields
          greeting={greeting}
          scenario={scenario}
          errors={errors}
          onChange={(field, value) => {
            (field === 'greeting' ? setGreeting : setScenario)(value);
            edited(field);
          }}
        />
        <VisibilityChoice
          value={visibility}
          onChange={(v) => {
            setVisibility(v);
            edited('visibility');
          }}
          publicLabel={t('characters.edit.visibility_public')}
          testId="edit-character-visibility"
        >
          <p className="mt-1.5 text-xs text-muted" data-testid="edit-character-visibility-hint">
            {t(`characters.edit.${visibilityHint(bot, visibility, autoApprove)}`)}
          </p>
          {errors.visibility && <p className="mt-1 text-xs text-red-400">{errors.visibility}</p>}
        </VisibilityChoice>
        <FormError message={formError} />
        <button
          type="submit"
          disabled={update.isPending}
          className="rounded-full bg-primary px-6 py-3 font-semibold text-on-primary disabled:opacity-50"
        >
          {t(review ? 'characters.review.save' : 'characters.edit.save')}
        </button>
      </form>
    </Modal>
  );
}
