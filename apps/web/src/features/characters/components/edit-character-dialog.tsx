import '../../../lib/error-texts';
import '../character-texts';
import '../texts';
import { useState, type FormEvent } from 'react';
import { Link } from 'react-router';
import {
  CHARACTER_VOICES,
  OCCUPATION_OPTIONS,
  PERSONALITY_OPTIONS,
  type BotDetail,
  type BotUpdate,
} from '@reverie/shared';
import { showAlert } from '../../../components/ui/alerts';
import { checkCharacterBasics, FormField, formInputClass } from '../../../components/ui/character-basics';
import { FormError } from '../../../components/ui/form-error';
import { Modal } from '../../../components/ui/modal';
import { toApiRequestError } from '../../../lib/api-client';
import { useClientConfig } from '../../../lib/client-config';
import { useTranslation } from '../../../lib/i18n';
import { useUpdateBot } from '../api/update-bot';
import { basicsMessages } from './character-story-fields';
import { CharacterFormFields, firstFieldErrors, useCharacterForm, type Choices } from './character-form';
import { GallerySection } from './gallery-section';
import { styleOf, withStyle } from './style-choice';
import { VisibilityChoice, type Visibility } from './visibility-choice';

/** A saved list of choices as the picker holds it: the offered options picked, anything else as free text. */
const choicesFrom = (values: string[], options: readonly string[]): Choices =>
  values.every((v) => options.includes(v)) ? { picked: values, text: '' } : { picked: [], text: values.join(', ') };

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
 * The author edits their character or persona — the create form's fields: photo (judged again
 * by the server), name, age, description, occupation and personality; for a character also the
 * greeting, scenario, example messages, style, voice and who can see it. The character's page
 * (its menu), the review notice and My characters open it. The server decides the review
 * (PATCH /api/bot/{slug}); the message after saving says what happened. On an error the typed
 * texts stay: the API's field errors show at their fields, others above the button.
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
  const form = useCharacterForm(() => ({
    name: bot.name,
    age: String(bot.age),
    description: bot.description,
    occupation: choicesFrom(bot.occupation, OCCUPATION_OPTIONS),
    personality: choicesFrom(bot.personality, PERSONALITY_OPTIONS),
    greeting: bot.greeting,
    scenario: bot.scenario,
    exampleMessages: bot.example_messages,
    style: styleOf(bot.tags),
  }));
  const [voice, setVoice] = useState(bot.voice);
  const character = bot.kind === 'character';
  const [visibility, setVisibility] = useState<Visibility>(
    initialVisibility ?? (bot.visibility === 'public' ? 'public' : 'private'),
  );
  const [formError, setFormError] = useState<string | null>(null);
  const { errors, setErrors, edited } = form;

  const submit = (event: FormEvent) => {
    event.preventDefault();
    setFormError(null);
    const found = checkCharacterBasics(form.basics, basicsMessages(t));
    setErrors(found);
    if (Object.keys(found).length) return;
    const fields: BotUpdate = form.basicFields();
    if (character) {
      Object.assign(fields, {
        greeting: form.greeting,
        scenario: form.scenario,
        example_messages: form.exampleMessages,
        tags: withStyle(bot.tags, form.style),
        // A voice the form does not offer (an administrator typed it) is kept unless another is chosen.
        ...(voice !== bot.voice ? { voice } : {}),
        visibility,
      });
    }
    update.mutate(
      { ...fields, photo: form.photo },
      {
        onSuccess: (saved) => {
          showAlert(t(`characters.edit.${outcome(bot, saved)}`, { name: saved.name }), { type: 'success' });
          onClose();
        },
        onError: (error) => {
          const apiError = toApiRequestError(error);
          const fields = Object.entries(apiError.fieldErrors);
          if (fields.length) return setErrors(firstFieldErrors(apiError.fieldErrors));
          if (apiError.code === 'inappropriate_content') return setFormError(t('errors.inappropriate_content'));
          if (apiError.code === 'rate_limited') return setFormError(t('characters.mine.rate_limited'));
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
        <CharacterFormFields
          form={form}
          errors={errors}
          character={character}
          photoHint={t('characters.form.photo_hint')}
          currentPhoto={bot.avatar_url}
          aside={
            <FormField label={t('characters.form.voice')} error={errors.voice}>
              <select
                className={formInputClass}
                name="voice"
                value={voice}
                onChange={(e) => {
                  setVoice(e.target.value);
                  edited('voice');
                }}
              >
                {!CHARACTER_VOICES.some((v) => v.id === bot.voice) && <option value={bot.voice}>{bot.voice}</option>}
                {CHARACTER_VOICES.map((v, i) => (
                  <option key={v.id} value={v.id}>
                    {t(`characters.form.voice_${v.sex}`, {
                      number: String(CHARACTER_VOICES.filter((o, j) => o.sex === v.sex && j <= i).length),
                    })}
                  </option>
                ))}
              </select>
            </FormField>
          }
        >
          <GallerySection slug={bot.slug} />
          <div
            className="flex flex-col gap-1.5 rounded-xl border border-white/10 p-3 text-sm"
            data-testid="edit-character-lorebook"
          >
            <span className="font-medium">{t('characters.edit.lorebook')}</span>
            <span className="text-xs text-muted">{t('characters.edit.lorebook_text')}</span>
            <Link
              to={`/lorebooks/character/${encodeURIComponent(bot.slug)}`}
              onClick={onClose}
              className="self-start rounded-full border border-white/15 px-4 py-1.5 text-sm hover:bg-white/5"
              data-testid="edit-character-lorebook-open"
            >
              {t('characters.edit.lorebook_open')}
            </Link>
          </div>
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
        </CharacterFormFields>
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
