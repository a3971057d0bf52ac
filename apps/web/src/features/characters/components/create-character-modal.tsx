import '../catalogue-texts';
import { useEffect, useRef, useState, type FormEvent } from 'react';
import { useNavigate } from 'react-router';
import { useTranslation } from '../../../lib/i18n';
import { ImagePlus, Upload, X } from 'lucide-react';
import {
  IMAGE_MAX_BYTES,
  MIN_CHARACTER_AGE,
  OCCUPATION_OPTIONS,
  PERSONALITY_OPTIONS,
  type BotDetail,
} from '@reverie/shared';
import type { ModalProps } from '../../../lib/modals';
import { CharacterBasics, checkCharacterBasics } from '../../../components/ui/character-basics';
import { FormError } from '../../../components/ui/form-error';
import { Modal } from '../../../components/ui/modal';
import { SegmentedControl } from '../../../components/ui/segmented-control';
import { Icon } from '../../../components/ui/icon';
import { FileButton } from '../../../components/ui/file-button';
import { showAlert } from '../../../components/ui/alerts';
import { toApiRequestError } from '../../../lib/api-client';
import { useSession } from '../../../lib/session';
import { useClientConfig } from '../../../lib/client-config';
import { useCreateBot } from '../api/create-bot';
import { useImportCard } from '../api/import-card';
import { ChoicePicker } from './choice-picker';
import { basicsMessages, CharacterStoryFields, useBasicsInput } from './character-story-fields';
import { VisibilityChoice } from './visibility-choice';
import '../texts';

type Kind = 'character' | 'persona';
type Errors = Partial<Record<string, string>>;

const choicesOf = (value: { picked: string[]; text: string }) =>
  value.text.trim() ? [value.text.trim()] : value.picked;

/** Create a character or persona (`?create=1`), or import a community character card. */
export default function CreateCharacterModal({ onClose, requireAuth }: ModalProps) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const { isAuthorized } = useSession();
  const create = useCreateBot();
  const importCard = useImportCard();
  const [kind, setKind] = useState<Kind>('character');
  const [photo, setPhoto] = useState<File | null>(null);
  const [preview, setPreview] = useState<string | null>(null);
  const [occupation, setOccupation] = useState({ picked: [] as string[], text: '' });
  const [personality, setPersonality] = useState({ picked: [] as string[], text: '' });
  const [greeting, setGreeting] = useState('');
  const [scenario, setScenario] = useState('');
  const [style, setStyle] = useState<'anime' | 'realistic'>('realistic');
  const [visibility, setVisibility] = useState<'private' | 'public'>('private');
  /** Public characters are listed at once (the server's moderation approves them): no "after review". */
  const autoApprove = useClientConfig().data?.auto_approve_characters === true;
  /** Errors the server gave, per field; one goes as soon as its field is changed. */
  const [serverErrors, setServerErrors] = useState<Errors>({});
  /** A field the user changes loses the server's error for it (the next submit checks again). */
  const edited = (field: string) =>
    setServerErrors((current) => (current[field] ? { ...current, [field]: undefined } : current));
  const { basics, input: basicsInput } = useBasicsInput(
    {
      name: '',
      age: String(MIN_CHARACTER_AGE + 7),
      description: '',
    },
    edited,
  );
  /** After the first submit the form's own checks run on every change. */
  const [submitted, setSubmitted] = useState(false);
  const [formError, setFormError] = useState<string | null>(null);
  const photoInput = useRef<HTMLInputElement>(null);

  useEffect(() => {
    if (!photo) return setPreview(null);
    const url = URL.createObjectURL(photo);
    setPreview(url);
    return () => URL.revokeObjectURL(url);
  }, [photo]);

  /** The form's own checks (what the server would refuse anyway), with their messages. */
  const checkFields = (): Errors => checkCharacterBasics(basics, basicsMessages(t));
  // An error shows from the first submit on, and goes as soon as the field is valid.
  const errors: Errors = { ...serverErrors, ...(submitted ? checkFields() : {}) };

  const choosePhoto = (file: File | undefined) => {
    if (!file) return;
    if (!file.type.startsWith('image/'))
      return setServerErrors((e) => ({ ...e, photo: t('create_character.photo_not_image') }));
    if (file.size > IMAGE_MAX_BYTES)
      return setServerErrors((e) => ({ ...e, photo: t('create_character.photo_too_big') }));
    setServerErrors((e) => ({ ...e, photo: undefined }));
    setPhoto(file);
  };

  const done = (bot: BotDetail, message: string) => {
    showAlert(message);
    onClose();
    if (bot.kind === 'character') navigate('/', { replace: false });
  };

  const failure = (error: unknown) => {
    const apiError = toApiRequestError(error);
    if (apiError.status === 422 || apiError.code === 'inappropriate_content')
      return setFormError(t('errors.inappropriate_content'));
    if (apiError.status === 400 && Object.keys(apiError.fieldErrors).length) {
      setServerErrors(Object.fromEntries(Object.entries(apiError.fieldErrors).map(([k, v]) => [k, v[0]])));
      return setFormError(null);
    }
    if (apiError.code === 'invalid_card' || apiError.code === 'invalid_image') return setFormError(apiError.message);
    setFormError(t('errors.persona_create_failed'));
  };

  const submit = (event: FormEvent) => {
    event.preventDefault();
    setFormError(null);
    setSubmitted(true);
    setServerErrors({});
    if (Object.keys(checkFields()).length) return;
    create.mutate(
      {
        name: basics.name.trim(),
        age: Number(basics.age),
        kind,
        occupation: choicesOf(occupation),
        personality: choicesOf(personality),
        description: basics.description,
        greeting,
        scenario,
        tags: [style],
        visibility,
        photo,
      },
      {
        onSuccess: (bot) =>
          done(
            bot,
            t(
              bot.visibility === 'public' && bot.review_state !== 'approved'
                ? 'create_character.created_pending'
                : 'create_character.created',
              { name: bot.name },
            ),
          ),
        onError: failure,
      },
    );
  };

  if (!isAuthorized) {
    return (
      <Modal open onClose={onClose} title={t('create_character.title')}>
        <p className="text-muted">{t('create_character.login_required')}</p>
        <button
          type="button"
          onClick={requireAuth}
          className="mt-4 w-full rounded-full bg-primary px-6 py-3 font-semibold text-on-primary"
          data-testid="create-character-auth"
        >
          {t('create_character.login_to_create')}
        </button>
      </Modal>
    );
  }

  const busy = create.isPending || importCard.isPending;
  return (
    <Modal
      open
      onClose={onClose}
      title={t('create_character.title')}
      description={t('create_character.subtitle')}
      size="lg"
    >
      <form onSubmit={submit} noValidate className="flex flex-col gap-4" data-testid="create-character-form">
        <SegmentedControl
          fill
          value={kind}
          onChange={setKind}
          options={(['character', 'persona'] as const).map((k) => ({
            value: k,
            label: t(`create_character.kind_${k}`),
          }))}
        />

        <div className="flex items-center gap-4">
          <button
            type="button"
            onClick={() => photoInput.current?.click()}
            className="flex h-24 w-24 shrink-0 items-center justify-center overflow-hidden rounded-2xl border border-dashed border-white/20 bg-bg text-muted hover:border-primary"
            aria-label={t('create_character.photo_choose')}
          >
            {preview ? (
              <img src={preview} alt="" className="h-full w-full object-cover" />
            ) : (
              <Icon icon={ImagePlus} size="xl" />
            )}
          </button>
          <div className="min-w-0 text-sm">
            <p className="font-medium">{t('create_character.photo')}</p>
            <p className="text-xs text-muted">{t('create_character.photo_hint')}</p>
            {photo && (
              <button
                type="button"
                onClick={() => setPhoto(null)}
                className="mt-1 flex items-center gap-1 text-xs text-muted hover:text-fg"
              >
                <Icon icon={X} size="sm" />
                {t('create_character.photo_remove')}
              </button>
            )}
            {errors.photo && <p className="mt-1 text-xs text-red-400">{errors.photo}</p>}
          </div>
          <input
            ref={photoInput}
            type="file"
            accept="image/png,image/jpeg,image/webp,image/gif,image/avif"
            className="sr-only"
            data-testid="photo-input"
            tabIndex={-1}
            onChange={(e) => choosePhoto(e.target.files?.[0])}
          />
        </div>

        <CharacterBasics
          {...basicsInput}
          placeholders={{
            name: t('create_character.name_placeholder'),
            description: t('create_character.description_placeholder'),
          }}
          errors={errors}
        />
        <ChoicePicker
          label={t('create_character.occupation')}
          options={OCCUPATION_OPTIONS}
          labelPrefix="create_character.occupations"
          value={occupation}
          onChange={(value) => {
            setOccupation(value);
            edited('occupation');
          }}
          error={errors.occupation}
        />
        <ChoicePicker
          label={t('create_character.personality')}
          options={PERSONALITY_OPTIONS}
          labelPrefix="create_character.personalities"
          value={personality}
          onChange={(value) => {
            setPersonality(value);
            edited('personality');
          }}
          error={errors.personality}
        />

        {kind === 'character' && (
          <>
            <CharacterStoryFields
              greeting={greeting}
              scenario={scenario}
              placeholders
              errors={errors}
              onChange={(field, value) => {
                (field === 'greeting' ? setGreeting : setScenario)(value);
                edited(field);
              }}
            />
            <div className="grid gap-3 sm:grid-cols-2">
              <fieldset>
                <legend className="text-sm font-medium">{t('create_character.tags')}</legend>
                <div className="mt-1 flex gap-2">
                  {(['realistic', 'anime'] as const).map((s) => (
                    <button
                      key={s}
                      type="button"
                      aria-pressed={style === s}
                      onClick={() => setStyle(s)}
                      className={`rounded-full border px-3 py-1 text-sm ${style === s ? 'border-primary bg-primary/20' : 'border-white/15 text-muted'}`}
                    >
                      {t(`explore.filter_${s}`)}
                    </button>
                  ))}
                </div>
              </fieldset>
              <VisibilityChoice
                value={visibility}
                onChange={setVisibility}
                publicLabel={t(
                  autoApprove ? 'characters.edit.visibility_public' : 'create_character.visibility_public',
                )}
              />
            </div>
          </>
        )}

        <FormError message={formError} />
        <button
          type="submit"
          disabled={busy}
          className="rounded-full bg-primary py-3 font-semibold text-on-primary shadow-lg shadow-primary/30 hover:brightness-110 disabled:opacity-60"
        >
          {create.isPending ? t('create_character.submitting') : t('create_character.submit')}
        </button>
      </form>

      <div className="mt-6 flex items-center justify-between gap-3 rounded-2xl border border-white/10 bg-bg/60 p-4">
        <div className="min-w-0">
          <p className="text-sm font-medium">{t('create_character.import_title')}</p>
          <p className="text-xs text-muted">{t('create_character.import_hint')}</p>
        </div>
        <FileButton
          disabled={busy}
          className="flex shrink-0 items-center gap-1.5 rounded-full border border-white/15 px-3 py-2 text-sm hover:border-primary"
          accept="image/png,application/json,.json,.png"
          label={t('create_character.import_button')}
          onFile={(file) =>
            importCard.mutate(file, {
              onSuccess: (bot) => done(bot, t('create_character.imported', { name: bot.name })),
              onError: failure,
            })
          }
        >
          <Icon icon={Upload} size="sm" />
          {t('create_character.import_button')}
        </FileButton>
      </div>
    </Modal>
  );
}
