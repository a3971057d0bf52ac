import { useState, type FormEvent } from 'react';
import { useNavigate } from 'react-router';
import { BOT_LIMITS, MIN_CHARACTER_AGE, type AdminCharacter, type AdminCharacterPatch } from '@reverie/shared';
import { showAlert } from '../../../../components/ui/alerts';
import { FileButton } from '../../../../components/ui/file-button';
import { ApiRequestError } from '../../../../lib/api-client';
import { useTranslation } from '../../../../lib/i18n';
import { useChooseCharacterAvatar } from '../../api/choose-character-avatar';
import { useDeleteCharacterPicture } from '../../api/delete-character-picture';
import { useCharacterVoices } from '../../api/get-character-voices';
import { useReorderCharacterPictures } from '../../api/reorder-character-pictures';
import { useSetCharacterPictureVisibility } from '../../api/set-character-picture-visibility';
import { useSaveAdminCharacter } from '../../api/save-admin-character';
import { useUploadCharacterPicture } from '../../api/upload-character-picture';
import { ConfirmAction } from '../../components/confirm-action';
import {
  Badge,
  cardClass,
  Field,
  inputClass,
  primaryButton,
  secondaryButton,
  TextField,
} from '../../components/content-ui';

/** Lines of a textarea as a list (alternate greetings: blank lines between them). */
const listOf = (text: string, separator: RegExp) =>
  text
    .split(separator)
    .map((item) => item.trim())
    .filter(Boolean);

type Texts = {
  name: string;
  slug: string;
  age: string;
  description: string;
  greeting: string;
  alternate_greetings: string;
  personality_text: string;
  scenario: string;
  example_messages: string;
  system_prompt: string;
  post_history_instructions: string;
  creator_notes: string;
  tags: string;
  occupation: string;
  personality: string;
  voice: string;
  visibility: 'public' | 'private';
};

const textsOf = (c: AdminCharacter | null): Texts => ({
  name: c?.name ?? '',
  slug: c?.slug ?? '',
  age: c ? String(c.age) : '',
  description: c?.description ?? '',
  greeting: c?.greeting ?? '',
  alternate_greetings: c?.alternate_greetings.join('\n\n') ?? '',
  personality_text: c?.personality_text ?? '',
  scenario: c?.scenario ?? '',
  example_messages: c?.example_messages ?? '',
  system_prompt: c?.system_prompt ?? '',
  post_history_instructions: c?.post_history_instructions ?? '',
  creator_notes: c?.creator_notes ?? '',
  tags: c?.tags.join(', ') ?? 'anime',
  occupation: c?.occupation.join(', ') ?? '',
  personality: c?.personality.join(', ') ?? '',
  voice: c?.voice ?? '',
  visibility: c?.visibility ?? 'private',
});

/**
 * The gallery: upload, order, the avatar, public (on the page) or private (sent in chat only),
 * delete (saved characters only).
 */
export function CharacterGallery({ character }: { character: AdminCharacter }) {
  const { t } = useTranslation();
  const upload = useUploadCharacterPicture();
  const visibility = useSetCharacterPictureVisibility();
  const remove = useDeleteCharacterPicture();
  const reorder = useReorderCharacterPictures();
  const avatar = useChooseCharacterAvatar();
  const fail = (error: Error) => showAlert(error.message, { type: 'error' });
  const [deleting, setDeleting] = useState<string | null>(null);
  const pictures = character.pictures;
  const move = (index: number, by: -1 | 1) => {
    const order = pictures.map((p) => p.id);
    const [picked] = order.splice(index, 1);
    order.splice(index + by, 0, picked!);
    reorder.mutate({ id: character.id, order }, { onError: fail });
  };
  return (
    <div className={cardClass}>
      <div className="flex flex-wrap items-center justify-between gap-2">
        <h3 className="font-semibold">{t('admin.characters.gallery')}</h3>
        <FileButton
          className={secondaryButton}
          disabled={upload.isPending}
          testId="character-picture-upload"
          accept="image/png,image/jpeg,image/webp"
          label={t('admin.characters.add_picture')}
          onFile={(file) => upload.mutate({ id: character.id, file }, { onError: fail })}
        >
          {upload.isPending ? t('admin.common.uploading') : t('admin.characters.add_picture')}
        </FileButton>
      </div>
      <p className="mt-1 text-xs text-muted">{t('admin.characters.gallery_hint')}</p>
      <p className="mt-1 text-xs text-muted">{t('admin.characters.private_hint')}</p>
      {pictures.length === 0 ? (
        <p className="mt-3 text-sm text-muted">{t('admin.characters.no_pictures')}</p>
      ) : (
        <ul className="mt-3 grid grid-cols-2 gap-3 sm:grid-cols-3 lg:grid-cols-4">
          {pictures.map((picture, index) => (
            <li key={picture.id} className="flex flex-col gap-2 rounded-xl bg-bg p-2">
              <div className="relative">
                <img src={picture.url} alt="" className="aspect-[3/4] w-full rounded-lg object-cover" />
                <div className="absolute top-1 left-1 flex flex-wrap gap-1">
                  {picture.is_avatar && <Badge tone="ok">{t('admin.characters.avatar')}</Badge>}
                  {picture.explicit && <Badge tone="warn">{t('admin.review.explicit')}</Badge>}
                  {picture.visibility === 'private' && (
                    <Badge tone="muted">{t('admin.characters.private_picture')}</Badge>
                  )}
                </div>
              </div>
              <div className="flex flex-wrap gap-1 text-xs">
                <button
                  type="button"
                  className="rounded-full px-2 py-1 hover:bg-white/10 disabled:opacity-30"
                  disabled={index === 0}
                  onClick={() => move(index, -1)}
                  aria-label={t('admin.characters.move_earlier')}
                >
                  ←
                </button>
                <button
                  type="button"
                  className="rounded-full px-2 py-1 hover:bg-white/10 disabled:opacity-30"
                  disabled={index === pictures.length - 1}
                  onClick={() => move(index, 1)}
                  aria-label={t('admin.characters.move_later')}
                >
                  →
                </button>
                {!picture.is_avatar && picture.visibility === 'public' && (
                  <button
                    type="button"
                    className="rounded-full px-2 py-1 hover:bg-white/10"
                    onClick={() => avatar.mutate({ id: character.id, pictureId: picture.id }, { onError: fail })}
                  >
                    {t('admin.characters.make_avatar')}
                  </button>
                )}
                {!picture.is_avatar && (
                  <button
                    type="button"
                    className="rounded-full px-2 py-1 hover:bg-white/10"
                    disabled={visibility.isPending}
                    onClick={() =>
                      visibility.mutate(
                        {
                          id: character.id,
                          pictureId: picture.id,
                          visibility: picture.visibility === 'public' ? 'private' : 'public',
                        },
                        { onError: fail },
                      )
                    }
                  >
                    {picture.visibility === 'public'
                      ? t('admin.characters.make_private')
                      : t('admin.characters.make_public')}
                  </button>
                )}
                <button
                  type="button"
                  className="rounded-full px-2 py-1 text-red-300 hover:bg-red-950/40"
                  onClick={() => setDeleting(picture.id)}
                >
                  {t('admin.common.delete')}
                </button>
              </div>
            </li>
          ))}
        </ul>
      )}
      <ConfirmAction
        open={deleting !== null}
        title={t('admin.characters.delete_picture_confirm')}
        confirmLabel={t('admin.common.delete')}
        danger
        reason="none"
        testId="character-picture-delete"
        onConfirm={() => remove.mutateAsync({ id: character.id, pictureId: deleting! })}
        onClose={() => setDeleting(null)}
      />
    </div>
  );
}

/** Creates or edits an official character: every card field, voice, visibility; its gallery once saved. */
export function CharacterEditor({ character }: { character: AdminCharacter | null }) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const save = useSaveAdminCharacter();
  const voices = useCharacterVoices();
  const [texts, setTexts] = useState<Texts>(() => textsOf(character));
  const [errors, setErrors] = useState<Record<string, string[]>>({});
  const set = (key: keyof Texts) => (event: { target: { value: string } }) =>
    setTexts((current) => ({ ...current, [key]: event.target.value }));

  const submit = (event: FormEvent) => {
    event.preventDefault();
    const found: Record<string, string[]> = {};
    if (!texts.name.trim()) found.name = [t('validation.name_required')];
    const age = Number(texts.age);
    if (!Number.isInteger(age) || age < MIN_CHARACTER_AGE) found.age = [t('admin.characters.age_min')];
    if (!texts.description.trim()) found.description = [t('validation.required')];
    setErrors(found);
    if (Object.keys(found).length) return;
    const fields: AdminCharacterPatch = {
      name: texts.name.trim(),
      ...(!character && texts.slug.trim() ? { slug: texts.slug.trim() } : {}),
      age,
      description: texts.description,
      greeting: texts.greeting,
      alternate_greetings: listOf(texts.alternate_greetings, /\n\s*\n/),
      personality_text: texts.personality_text,
      scenario: texts.scenario,
      example_messages: texts.example_messages,
      system_prompt: texts.system_prompt,
      post_history_instructions: texts.post_history_instructions,
      creator_notes: texts.creator_notes,
      tags: listOf(texts.tags.toLowerCase(), /,/),
      occupation: listOf(texts.occupation, /,/),
      personality: listOf(texts.personality, /,/),
      ...(texts.voice ? { voice: texts.voice } : {}),
      visibility: texts.visibility,
    };
    save.mutate(
      { id: character?.id ?? null, fields },
      {
        onSuccess: (saved) => {
          showAlert(t('admin.characters.saved', { name: saved.name }), { type: 'success' });
          if (!character) navigate(`/admin/characters/${saved.id}`, { replace: true });
        },
        onError: (error) => {
          if (error instanceof ApiRequestError && error.code === 'slug_taken')
            return setErrors({ slug: [t('admin.characters.slug_taken')] });
          if (error instanceof ApiRequestError && Object.keys(error.fieldErrors).length)
            return setErrors(error.fieldErrors);
          showAlert(error.message, { type: 'error' });
        },
      },
    );
  };

  const text = (key: keyof Texts, rows: number, max: number, hint?: string, disabled = false) => (
    <TextField
      id={`character-${key}`}
      label={t(`admin.characters.fields.${key}`)}
      hint={hint}
      errors={errors[key]}
      value={texts[key]}
      onChange={(value) => setTexts((current) => ({ ...current, [key]: value }))}
      maxLength={max}
      rows={rows}
      disabled={disabled}
      className={rows === 1 ? `${inputClass} disabled:opacity-60` : inputClass}
    />
  );

  return (
    <div className="flex flex-col gap-4">
      <form onSubmit={submit} noValidate className={`${cardClass} flex flex-col gap-4`} data-testid="character-editor">
        <div className="flex flex-wrap items-center justify-between gap-3">
          <h2 className="text-xl font-semibold">
            {character ? t('admin.characters.edit', { name: character.name }) : t('admin.characters.new')}
          </h2>
          <button type="submit" className={primaryButton} disabled={save.isPending} data-testid="character-save">
            {t('admin.common.save')}
          </button>
        </div>
        <div className="grid gap-4 sm:grid-cols-[1fr_1fr_6rem]">
          {text('name', 1, BOT_LIMITS.name)}
          {text('slug', 1, 80, character ? `/${character.slug}` : t('admin.characters.slug_hint'), Boolean(character))}
          <Field label={t('admin.characters.fields.age')} htmlFor="character-age" errors={errors.age}>
            <input
              id="character-age"
              type="number"
              min={MIN_CHARACTER_AGE}
              max={200}
              value={texts.age}
              onChange={set('age')}
              className={inputClass}
            />
          </Field>
        </div>
        {text('description', 4, BOT_LIMITS.description)}
        {text('greeting', 3, BOT_LIMITS.greeting)}
        {text('alternate_greetings', 3, BOT_LIMITS.greeting * 4, t('admin.characters.alternate_greetings_hint'))}
        <div className="grid gap-4 sm:grid-cols-2">
          {text('personality_text', 2, BOT_LIMITS.personalityText)}
          {text('scenario', 2, BOT_LIMITS.scenario)}
        </div>
        {text('example_messages', 4, BOT_LIMITS.exampleMessages)}
        <div className="grid gap-4 sm:grid-cols-2">
          {text('system_prompt', 3, BOT_LIMITS.systemPrompt)}
          {text('post_history_instructions', 3, BOT_LIMITS.postHistoryInstructions)}
        </div>
        {text('creator_notes', 2, BOT_LIMITS.creatorNotes)}
        <div className="grid gap-4 sm:grid-cols-3">
          {text('tags', 1, 400, t('admin.characters.tags_hint'))}
          {text('occupation', 1, 400, t('admin.characters.list_hint'))}
          {text('personality', 1, 400, t('admin.characters.list_hint'))}
        </div>
        <div className="grid gap-4 sm:grid-cols-2">
          <Field
            label={t('admin.characters.fields.voice')}
            htmlFor="character-voice"
            hint={t('admin.characters.voice_hint')}
            errors={errors.voice}
          >
            <select id="character-voice" value={texts.voice} onChange={set('voice')} className={inputClass}>
              <option value="">{t('admin.characters.voice_auto')}</option>
              {texts.voice && !voices.data?.some((v) => v.id === texts.voice) && (
                <option value={texts.voice}>{texts.voice}</option>
              )}
              {voices.data?.map((voice) => (
                <option key={voice.id} value={voice.id}>
                  {t(`admin.characters.voice_${voice.sex}`, { id: voice.id })}
                </option>
              ))}
            </select>
          </Field>
          <Field label={t('admin.characters.fields.visibility')} htmlFor="character-visibility">
            <select
              id="character-visibility"
              value={texts.visibility}
              onChange={set('visibility')}
              className={inputClass}
            >
              <option value="private">{t('admin.characters.private')}</option>
              <option value="public">{t('admin.characters.public')}</option>
            </select>
          </Field>
        </div>
      </form>
      {character ? (
        <CharacterGallery character={character} />
      ) : (
        <p className="text-sm text-muted">{t('admin.characters.gallery_after_save')}</p>
      )}
    </div>
  );
}
