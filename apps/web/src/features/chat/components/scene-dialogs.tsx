import '../texts';
import { useState, type FormEvent } from 'react';
import { Link } from 'react-router';
import { Mic, MicOff, Phone, Plus, Trash2 } from 'lucide-react';
import {
  SCENE_CHARACTERS_MAX,
  SCENE_CHARACTERS_MIN,
  SCENE_PLACE_MAX,
  SCENE_SITUATION_MAX,
  type Scene,
  type TurnMode,
} from '@reverie/shared';
import { showAlert } from '../../../components/ui/alerts';
import { FormError } from '../../../components/ui/form-error';
import { Icon } from '../../../components/ui/icon';
import { Modal } from '../../../components/ui/modal';
import { ApiRequestError } from '../../../lib/api-client';
import { useTranslation } from '../../../lib/i18n';
import { useMyPersonas } from '../api/get-personas';
import {
  useAddCharacter,
  useCreateGroup,
  useMuteCharacter,
  useRemoveCharacter,
  useUpdateScene,
  type PickableCharacter,
} from '../api/scene';
import type { Chat } from '@reverie/shared';
import { CharacterPicker } from './character-picker';
import { IconButton, IconTextButton } from '../../../components/ui/icon-button';
import {
  DialogActions,
  outlineButtonClass,
  primaryButtonClass as primary,
  secondaryButtonClass as secondary,
} from '../../../components/ui/dialog-actions';

export const sceneField =
  'rounded-xl border border-white/10 bg-bg px-3 py-2 text-sm placeholder:text-muted focus:border-primary/60 focus:outline-none';

type T = (key: string, options?: Record<string, unknown>) => string;

const KNOWN_ERRORS = [
  'scene_full',
  'already_in_scene',
  'scene_last_character',
  'scene_owner_only',
  'scene_all_muted',
  'scene_characters_min',
  'scene_characters_max',
  'scene_owner_cannot_leave',
  'invite_not_found',
  'invite_expired',
  'invite_revoked',
  'scene_blocked',
  'rate_limited',
  'generation_in_progress',
  'not_found',
];

const TURN_TEXTS = {
  auto: ['scenes.turns_auto', 'scenes.turns_auto_help'],
  manual: ['scenes.turns_manual', 'scenes.turns_manual_help'],
} as const;

/** A scene call's failure in plain words (docs/groups.md's error codes). */
export function sceneErrorText(t: T, failure: unknown): string {
  if (failure instanceof ApiRequestError) {
    if (failure.status === 0) return t('chat.errors.network');
    const code = failure.code ?? (failure.status === 429 ? 'rate_limited' : null);
    if (code && KNOWN_ERRORS.includes(code)) return t(`scenes.errors.${code}`);
  }
  return t('scenes.errors.default');
}

function PersonaSelect({
  viewer,
  value,
  onChange,
  enabled,
}: {
  viewer: string;
  value: string | null;
  onChange: (id: string | null) => void;
  enabled: boolean;
}) {
  const { t } = useTranslation();
  const personas = useMyPersonas(viewer, enabled);
  return (
    <label className="flex flex-col gap-1.5 text-sm">
      <span>{t('scenes.persona')}</span>
      <select
        value={value ?? ''}
        onChange={(event) => onChange(event.target.value || null)}
        data-testid="scene-persona"
        className={sceneField}
      >
        <option value="">{t('scenes.persona_none')}</option>
        {(personas.data ?? []).map((persona) => (
          <option key={persona.id} value={persona.id}>
            {persona.name}
          </option>
        ))}
      </select>
    </label>
  );
}

function SettingFields({
  place,
  situation,
  onPlace,
  onSituation,
  readOnly = false,
}: {
  place: string;
  situation: string;
  onPlace: (value: string) => void;
  onSituation: (value: string) => void;
  readOnly?: boolean;
}) {
  const { t } = useTranslation();
  return (
    <>
      <label className="flex flex-col gap-1.5 text-sm">
        <span>{t('scenes.place')}</span>
        <input
          value={place}
          onChange={(event) => onPlace(event.target.value)}
          maxLength={SCENE_PLACE_MAX}
          readOnly={readOnly}
          placeholder={t('scenes.place_placeholder')}
          data-testid="scene-place"
          className={sceneField}
        />
      </label>
      <label className="flex flex-col gap-1.5 text-sm">
        <span>{t('scenes.situation')}</span>
        <textarea
          value={situation}
          onChange={(event) => onSituation(event.target.value)}
          maxLength={SCENE_SITUATION_MAX}
          readOnly={readOnly}
          rows={3}
          placeholder={t('scenes.situation_placeholder')}
          data-testid="scene-situation"
          className={`resize-y ${sceneField}`}
        />
      </label>
    </>
  );
}

/** "New group": 2–8 characters, the scene (place, situation) and the user's persona. */
export function NewGroupDialog({
  open,
  viewer,
  known,
  onClose,
  onCreated,
}: {
  open: boolean;
  viewer: string;
  known: PickableCharacter[];
  onClose: () => void;
  onCreated: (chat: Chat) => void;
}) {
  const { t } = useTranslation();
  const create = useCreateGroup(viewer);
  const [picked, setPicked] = useState<PickableCharacter[]>([]);
  const [place, setPlace] = useState('');
  const [situation, setSituation] = useState('');
  const [persona, setPersona] = useState<string | null>(null);
  const [error, setError] = useState<string | null>(null);
  const toggle = (character: PickableCharacter) =>
    setPicked((all) =>
      all.some((c) => c.id === character.id) ? all.filter((c) => c.id !== character.id) : [...all, character],
    );
  const submit = async (event: FormEvent) => {
    event.preventDefault();
    if (picked.length < SCENE_CHARACTERS_MIN) return;
    setError(null);
    try {
      const chat = await create.mutateAsync({
        bot_ids: picked.map((c) => c.id),
        ...(place.trim() ? { place: place.trim() } : {}),
        ...(situation.trim() ? { situation: situation.trim() } : {}),
        persona_id: persona,
      });
      onCreated(chat);
    } catch (failure) {
      setError(sceneErrorText(t, failure));
    }
  };
  return (
    <Modal open={open} onClose={onClose} title={t('scenes.new_title')} description={t('scenes.new_text')} size="lg">
      <form onSubmit={(event) => void submit(event)} className="flex flex-col gap-4" data-testid="new-group-form">
        <p className="text-sm text-muted" aria-live="polite" data-testid="scene-pick-count">
          {t('scenes.picked', { count: picked.length, max: SCENE_CHARACTERS_MAX })}
        </p>
        <CharacterPicker
          known={known}
          selected={picked.map((c) => c.id)}
          onToggle={toggle}
          max={SCENE_CHARACTERS_MAX}
          enabled={open}
        />
        <SettingFields place={place} situation={situation} onPlace={setPlace} onSituation={setSituation} />
        <PersonaSelect viewer={viewer} value={persona} onChange={setPersona} enabled={open} />
        <FormError message={error} testId="new-group-error" />
        <DialogActions
          cancelLabel={t('chat.cancel')}
          onCancel={onClose}
          actionLabel={t('scenes.create')}
          disabled={picked.length < SCENE_CHARACTERS_MIN || create.isPending}
          testId="new-group-create"
        />
      </form>
    </Modal>
  );
}

/** "Add a character" (owner): one more in the scene; a one-to-one chat becomes a group, its history stays. */
export function AddCharacterDialog({
  open,
  chatId,
  known,
  present,
  onClose,
}: {
  open: boolean;
  chatId: string;
  known: PickableCharacter[];
  /** Ids already in the chat. */
  present: string[];
  onClose: () => void;
}) {
  const { t } = useTranslation();
  const add = useAddCharacter(chatId);
  const [error, setError] = useState<string | null>(null);
  const choose = async (character: PickableCharacter) => {
    setError(null);
    try {
      await add.mutateAsync(character.id);
      showAlert(t('scenes.added', { name: character.name }));
      onClose();
    } catch (failure) {
      setError(sceneErrorText(t, failure));
    }
  };
  return (
    <Modal open={open} onClose={onClose} title={t('scenes.add_title')} description={t('scenes.add_text')} size="lg">
      <div className="flex flex-col gap-3" data-testid="add-character-dialog">
        <CharacterPicker
          known={known}
          selected={[]}
          onToggle={(character) => void choose(character)}
          max={add.isPending ? 0 : 1}
          exclude={present}
          enabled={open}
        />
        <FormError message={error} testId="add-character-error" />
      </div>
    </Modal>
  );
}

/** The scene's setting: the owner edits place, situation and who speaks next; a member reads them. */
export function SceneSettingDialog({ open, scene, onClose }: { open: boolean; scene: Scene; onClose: () => void }) {
  const { t } = useTranslation();
  const owner = scene.me.role === 'owner';
  const update = useUpdateScene(scene.chat_id);
  const [place, setPlace] = useState(scene.place);
  const [situation, setSituation] = useState(scene.situation);
  const [turnMode, setTurnMode] = useState<TurnMode>(scene.turn_mode);
  const [error, setError] = useState<string | null>(null);
  const submit = async (event: FormEvent) => {
    event.preventDefault();
    setError(null);
    try {
      await update.mutateAsync({ place: place.trim(), situation: situation.trim(), turn_mode: turnMode });
      showAlert(t('scenes.setting_saved'));
      onClose();
    } catch (failure) {
      setError(sceneErrorText(t, failure));
    }
  };
  return (
    <Modal
      open={open}
      onClose={onClose}
      title={t('scenes.setting_title')}
      description={owner ? t('scenes.setting_text') : t('scenes.setting_text_member')}
    >
      <form onSubmit={(event) => void submit(event)} className="flex flex-col gap-4" data-testid="scene-setting-form">
        <SettingFields
          place={place}
          situation={situation}
          onPlace={setPlace}
          onSituation={setSituation}
          readOnly={!owner}
        />
        <fieldset className="flex flex-col gap-2 text-sm" disabled={!owner}>
          <legend className="mb-1.5">{t('scenes.turns')}</legend>
          {(['auto', 'manual'] as const).map((mode) => (
            <label key={mode} className="flex items-start gap-2">
              <input
                type="radio"
                name="turn_mode"
                value={mode}
                checked={turnMode === mode}
                onChange={() => setTurnMode(mode)}
                className="mt-1 accent-[var(--color-primary)]"
              />
              <span>
                <span className="font-medium">{t(TURN_TEXTS[mode][0])}</span>
                <span className="block text-xs text-muted">{t(TURN_TEXTS[mode][1])}</span>
              </span>
            </label>
          ))}
        </fieldset>
        <FormError message={error} testId="scene-setting-error" />
        <div className="flex justify-end gap-2">
          <button type="button" onClick={onClose} className={secondary}>
            {owner ? t('chat.cancel') : t('scenes.close')}
          </button>
          {owner && (
            <button type="submit" disabled={update.isPending} data-testid="scene-setting-save" className={primary}>
              {t('chat.save')}
            </button>
          )}
        </div>
      </form>
    </Modal>
  );
}

/** The characters of the scene: mute or unmute each (anyone); the owner removes one or adds more. */
export function SceneCharactersDialog({
  open,
  scene,
  onClose,
  onAdd,
}: {
  open: boolean;
  scene: Scene;
  onClose: () => void;
  onAdd: () => void;
}) {
  const { t } = useTranslation();
  const owner = scene.me.role === 'owner';
  const mute = useMuteCharacter(scene.chat_id);
  const remove = useRemoveCharacter(scene.chat_id);
  const act = async (run: () => Promise<unknown>) => {
    try {
      await run();
    } catch (failure) {
      showAlert(sceneErrorText(t, failure), { type: 'error' });
    }
  };
  return (
    <Modal open={open} onClose={onClose} title={t('scenes.characters_title')} description={t('scenes.characters_text')}>
      <div className="flex flex-col gap-3">
        <ul className="flex flex-col gap-2" data-testid="scene-characters">
          {scene.characters.map((character) => (
            <li
              key={character.bot_id}
              className="flex items-center gap-3 rounded-xl border border-white/10 px-3 py-2"
              data-testid="scene-character"
              data-muted={character.muted || undefined}
            >
              {character.avatar_url ? (
                <img
                  src={character.avatar_url}
                  alt=""
                  className={`h-10 w-10 rounded-full object-cover ${character.muted ? 'opacity-40 grayscale' : ''}`}
                />
              ) : (
                <span className="h-10 w-10 rounded-full bg-white/5" aria-hidden="true" />
              )}
              <span className="flex min-w-0 flex-1 flex-col">
                <span className="truncate font-medium">{character.name}</span>
                {character.muted && <span className="text-xs text-muted">{t('scenes.muted')}</span>}
              </span>
              <IconButton
                icon={character.muted ? MicOff : Mic}
                label={t(character.muted ? 'scenes.unmute' : 'scenes.mute', { name: character.name })}
                onClick={() => void act(() => mute.mutateAsync({ botId: character.bot_id, muted: !character.muted }))}
                disabled={mute.isPending}
                testId="scene-mute"
              />
              {owner && scene.characters.length > 1 && (
                <IconButton
                  icon={Trash2}
                  label={t('scenes.remove_character', { name: character.name })}
                  onClick={() => void act(() => remove.mutateAsync(character.bot_id))}
                  disabled={remove.isPending}
                  testId="scene-remove-character"
                  look="rowDanger"
                />
              )}
            </li>
          ))}
        </ul>
        {owner && scene.characters.length < SCENE_CHARACTERS_MAX && (
          <IconTextButton icon={Plus} onClick={onAdd} testId="scene-add-character" className={outlineButtonClass}>
            {t('scenes.add_character')}
          </IconTextButton>
        )}
      </div>
    </Modal>
  );
}

/** Calls stay one to one: in a group chat the call button asks whom to call. */
export function CallPickerDialog({
  open,
  characters,
  onClose,
}: {
  open: boolean;
  characters: { slug: string; name: string; avatar_url: string | null }[];
  onClose: () => void;
}) {
  const { t } = useTranslation();
  return (
    <Modal open={open} onClose={onClose} title={t('scenes.call_title')} description={t('scenes.call_text')} size="sm">
      <ul className="flex flex-col gap-2" data-testid="scene-call-picker">
        {characters.map((character) => (
          <li key={character.slug}>
            <Link
              to={`/audio?slug=${encodeURIComponent(character.slug)}`}
              data-testid="scene-call-option"
              className="flex items-center gap-3 rounded-xl border border-white/10 px-3 py-2 hover:bg-white/5"
            >
              {character.avatar_url ? (
                <img src={character.avatar_url} alt="" className="h-10 w-10 rounded-full object-cover" />
              ) : (
                <span className="h-10 w-10 rounded-full bg-white/5" aria-hidden="true" />
              )}
              <span className="flex-1 font-medium">{character.name}</span>
              <Icon icon={Phone} size="md" className="text-primary" />
            </Link>
          </li>
        ))}
      </ul>
    </Modal>
  );
}
