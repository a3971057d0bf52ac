import '../texts';
import { useRef } from 'react';
import { FastForward, MapPin, MicOff, SlidersHorizontal, Square, Users } from 'lucide-react';
import type { Scene, SceneCharacter } from '@reverie/shared';
import { Icon } from '../../../components/ui/icon';
import { IconButton } from '../../../components/ui/icon-button';
import { useTranslation } from '../../../lib/i18n';
import type { SceneTyping } from '../hooks/use-scene-live';

/** How long a press on a face must last to open the characters' menu instead of asking her to speak. */
const LONG_PRESS_MS = 500;

function Face({
  character,
  disabled,
  onSpeak,
  onMenu,
}: {
  character: SceneCharacter;
  disabled: boolean;
  onSpeak: () => void;
  onMenu: () => void;
}) {
  const { t } = useTranslation();
  const timer = useRef<ReturnType<typeof setTimeout> | null>(null);
  const longPressed = useRef(false);
  const start = () => {
    longPressed.current = false;
    timer.current = setTimeout(() => {
      longPressed.current = true;
      onMenu();
    }, LONG_PRESS_MS);
  };
  const cancel = () => {
    if (timer.current) clearTimeout(timer.current);
    timer.current = null;
  };
  return (
    <li className="shrink-0">
      <button
        type="button"
        onPointerDown={start}
        onPointerUp={cancel}
        onPointerLeave={cancel}
        onContextMenu={(event) => {
          event.preventDefault();
          cancel();
          onMenu();
        }}
        onClick={() => {
          if (longPressed.current) return;
          onSpeak();
        }}
        disabled={disabled}
        aria-label={t('scenes.speak', { name: character.name })}
        title={t('scenes.speak', { name: character.name })}
        data-testid="scene-face"
        data-muted={character.muted || undefined}
        className="group flex w-14 flex-col items-center gap-0.5 rounded-xl p-0.5 select-none disabled:opacity-50 [-webkit-touch-callout:none]"
      >
        <span className="relative">
          {character.avatar_url ? (
            <img
              src={character.avatar_url}
              alt=""
              draggable={false}
              className={`h-10 w-10 rounded-full object-cover ring-2 ring-transparent group-hover:ring-primary ${
                character.muted ? 'opacity-40 grayscale' : ''
              }`}
            />
          ) : (
            <span className="block h-10 w-10 rounded-full bg-surface" aria-hidden="true" />
          )}
          {character.muted && (
            <span className="absolute -right-1 -bottom-1 rounded-full bg-bg p-0.5 text-muted">
              <Icon icon={MicOff} size="sm" className="h-3 w-3" aria-label={t('scenes.muted')} role="img" />
            </span>
          )}
        </span>
        <span className="w-full truncate text-center text-[0.7rem] leading-tight">{character.name}</span>
      </button>
    </li>
  );
}

const pillBase =
  'flex h-9 items-center gap-1.5 rounded-full border border-white/15 px-3 text-xs font-medium hover:bg-white/5 disabled:opacity-40';
const pill = `${pillBase} shrink-0`;

/**
 * Under a group chat's header: the row of faces (a tap makes her speak, a long press or the
 * menu button mutes her), "Continue" (the characters talk among themselves), the people and
 * the scene's setting.
 */
export function SceneBar({
  scene,
  busy,
  onlineCount,
  onSpeak,
  onContinue,
  onStop,
  onCharacters,
  onPeople,
  onSetting,
}: {
  scene: Scene;
  busy: boolean;
  onlineCount: number;
  onSpeak: (character: SceneCharacter) => void;
  onContinue: () => void;
  /** Stops what is left of a running "Continue" (the chat's stop). */
  onStop: () => void;
  onCharacters: () => void;
  onPeople: () => void;
  onSetting: () => void;
}) {
  const { t } = useTranslation();
  const characters = [...scene.characters].sort((a, b) => a.position - b.position);
  return (
    <div className="border-b border-white/10 bg-bg/80" data-testid="scene-bar">
      <div className="mx-auto flex w-full max-w-3xl items-center gap-2 px-2 py-1.5 sm:px-4">
        <ul
          className="flex min-w-0 flex-1 gap-1 overflow-x-auto"
          aria-label={t('scenes.faces_label')}
          data-testid="scene-faces"
        >
          {characters.map((character) => (
            <Face
              key={character.bot_id}
              character={character}
              disabled={busy}
              onSpeak={() => onSpeak(character)}
              onMenu={onCharacters}
            />
          ))}
        </ul>
        <IconButton
          icon={SlidersHorizontal}
          label={t('scenes.characters_title')}
          onClick={onCharacters}
          testId="scene-characters-open"
          className="shrink-0"
        />
      </div>
      <div className="mx-auto flex w-full max-w-3xl items-center gap-2 px-2 pb-2 sm:px-4">
        {scene.continue_remaining > 0 ? (
          <button
            type="button"
            onClick={onStop}
            aria-label={t('scenes.continue_stop')}
            title={t('scenes.continue_stop')}
            data-testid="scene-continue-stop"
            className={pill}
          >
            <Icon icon={Square} size="sm" className="h-3 w-3 fill-current" />
            {t('scenes.continue_running', { count: scene.continue_remaining })}
          </button>
        ) : (
          <button type="button" onClick={onContinue} disabled={busy} data-testid="scene-continue" className={pill}>
            <Icon icon={FastForward} size="sm" />
            {t('scenes.continue')}
          </button>
        )}
        <button type="button" onClick={onPeople} data-testid="scene-people-open" className={pill}>
          <Icon icon={Users} size="sm" />
          {t('scenes.people', { count: scene.people.length })}
          {onlineCount > 0 && (
            <span className="flex items-center gap-1 text-emerald-300" data-testid="scene-online">
              <span className="h-1.5 w-1.5 rounded-full bg-emerald-400" aria-hidden="true" />
              {t('scenes.online', { count: onlineCount })}
            </span>
          )}
        </button>
        <button
          type="button"
          onClick={onSetting}
          data-testid="scene-setting-open"
          className={`${pillBase} min-w-0 shrink`}
          title={scene.place || t('scenes.setting_title')}
        >
          <Icon icon={MapPin} size="sm" />
          <span className="truncate">{scene.place || t('scenes.setting_title')}</span>
        </button>
      </div>
    </div>
  );
}

/** "Anna is typing…" above the composer (others only). */
export function SceneTypingLine({ typing }: { typing: SceneTyping[] }) {
  const { t } = useTranslation();
  if (typing.length === 0) return null;
  const names = typing.map((entry) => entry.name);
  return (
    <p
      className="mx-auto w-full max-w-3xl truncate px-4 pb-1 text-xs text-muted"
      role="status"
      data-testid="scene-typing"
    >
      {names.length === 1
        ? t('scenes.typing_single', { name: names[0] })
        : t('scenes.typing_several', { names: names.join(', ') })}
    </p>
  );
}
