import '../../../lib/error-texts';
import '../character-texts';
import { useState, type FormEvent } from 'react';
import { useNavigate } from 'react-router';
import { useTranslation } from '../../../lib/i18n';
import { Upload } from 'lucide-react';
import { MIN_CHARACTER_AGE, type BotDetail } from '@reverie/shared';
import type { ModalProps } from '../../../lib/modals';
import { MY_CHARACTERS_PATH } from '../paths';
import { checkCharacterBasics } from '../../../components/ui/character-basics';
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
import { basicsMessages } from './character-story-fields';
import { CharacterFormFields, firstFieldErrors, useCharacterForm, type FieldErrors } from './character-form';
import { VisibilityChoice } from './visibility-choice';
import '../texts';

type Kind = 'character' | 'persona';

/** Create a character or persona (`?create=1`), or import a community character card. */
export default function CreateCharacterModal({ onClose, requireAuth }: ModalProps) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const { isAuthorized } = useSession();
  const create = useCreateBot();
  const importCard = useImportCard();
  const [kind, setKind] = useState<Kind>('character');
  const [visibility, setVisibility] = useState<'private' | 'public'>('private');
  /** Public characters are listed at once (the server's moderation approves them): no "after review". */
  const autoApprove = useClientConfig().data?.auto_approve_characters === true;
  /** The fields, and the errors the server gave per field (one goes as soon as its field is changed). */
  const form = useCharacterForm(() => ({
    name: '',
    age: String(MIN_CHARACTER_AGE + 7),
    description: '',
    occupation: { picked: [], text: '' },
    personality: { picked: [], text: '' },
    greeting: '',
    scenario: '',
    exampleMessages: '',
    style: 'realistic',
  }));
  /** After the first submit the form's own checks run on every change. */
  const [submitted, setSubmitted] = useState(false);
  const [formError, setFormError] = useState<string | null>(null);

  /** The form's own checks (what the server would refuse anyway), with their messages. */
  const checkFields = (): FieldErrors => checkCharacterBasics(form.basics, basicsMessages(t));
  // An error shows from the first submit on, and goes as soon as the field is valid.
  const errors: FieldErrors = { ...form.errors, ...(submitted ? checkFields() : {}) };

  /**
   * A new character: the user lands in her chat, with her greeting (`/{slug}` starts it). A
   * persona is made where the user is (often the chat's persona choice): the user stays. The
   * message links to My characters either way.
   */
  const done = (bot: BotDetail, message: string) => {
    showAlert(message, { action: { label: t('characters.mine.title'), to: MY_CHARACTERS_PATH } });
    // Her chat takes the dialog's place in the history (Back returns to where it was opened);
    // leaving the `?create=1` address closes the dialog.
    if (bot.kind === 'character') navigate(`/${bot.slug}`, { replace: true });
    else onClose();
  };

  const failure = (error: unknown) => {
    const apiError = toApiRequestError(error);
    if (apiError.status === 422 || apiError.code === 'inappropriate_content')
      return setFormError(t('errors.inappropriate_content'));
    if (apiError.status === 400 && Object.keys(apiError.fieldErrors).length) {
      form.setErrors(firstFieldErrors(apiError.fieldErrors));
      return setFormError(null);
    }
    if (apiError.code === 'invalid_card' || apiError.code === 'invalid_image') return setFormError(apiError.message);
    setFormError(t('errors.persona_create_failed'));
  };

  const submit = (event: FormEvent) => {
    event.preventDefault();
    setFormError(null);
    setSubmitted(true);
    form.setErrors({});
    if (Object.keys(checkFields()).length) return;
    create.mutate(
      {
        ...form.basicFields(),
        kind,
        greeting: form.greeting,
        scenario: form.scenario,
        example_messages: form.exampleMessages,
        tags: [form.style],
        visibility,
        photo: form.photo,
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

        <CharacterFormFields
          form={form}
          errors={errors}
          character={kind === 'character'}
          photoHint={t('create_character.photo_hint')}
          placeholders
          aside={
            <VisibilityChoice
              value={visibility}
              onChange={setVisibility}
              publicLabel={t(autoApprove ? 'characters.edit.visibility_public' : 'create_character.visibility_public')}
            />
          }
        />

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
