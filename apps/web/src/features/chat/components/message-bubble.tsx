import '../texts';
import { memo, useRef, useState, type ReactNode, type TouchEvent } from 'react';
import {
  ChevronLeft,
  ChevronRight,
  Copy,
  Flag,
  GitBranch,
  ListX,
  Pencil,
  Trash2,
  Info,
  EyeOff,
  LifeBuoy,
  Phone,
  RefreshCw,
  RotateCcw,
  ShieldAlert,
  TriangleAlert,
  ScrollText,
} from 'lucide-react';
import { MessageKind, type Message } from '@reverie/shared';
import { showAlert } from '../../../components/ui/alerts';
import { Icon } from '../../../components/ui/icon';
import { IconButton, IconTextButton } from '../../../components/ui/icon-button';
import { MenuButton, type MenuItem } from '../../../components/ui/menu-button';
import { RoleplayText } from '../../../components/ui/roleplay-text';
import { formatMessageDateTime, formatMessageTime } from '../../../lib/message-time';
import { currentLocale, useTranslation, type TFunction } from '../../../lib/i18n';
import { localizeMessage } from '../../../lib/message-texts';

/**
 * The small red pill of an action that mends a failure: "Send again", "Retry", and the error
 * banner's "Stop the reply" (chat-view.tsx).
 */
export const failureActionClass =
  'rounded-full border border-red-300/40 px-2.5 py-0.5 font-semibold hover:bg-red-300/10 disabled:opacity-50';

export interface MessageBubbleProps {
  message: Message;
  botName: string;
  botAvatar: string | null;
  /** The signed-in user: in a scene of several people, others' messages show on the left with their names. */
  viewer?: string;
  /** A group chat: its characters' names ("Mira and Jun"), for the AI disclosure. */
  groupNames?: string;
  /** The newest bot reply: it offers regenerate. */
  isLastBot: boolean;
  /** A send or generation is under way: actions that start another wait. */
  busy: boolean;
  /** The model is still loading: the typing indicator says so. */
  warmingUp?: boolean;
  onRegenerate?: (message: Message) => void;
  onSelectAlternative?: (message: Message, index: number) => void;
  onReport?: (message: Message) => void;
  onResend?: (message: Message) => void;
  renderPicture?: (message: Message) => ReactNode;
  renderMessageExtras?: (message: Message) => ReactNode;
  /** The message's menu: edit, branch from here, delete, delete from here (docs/chat.md "Edit, delete and branches"). */
  onMessageAction?: (action: MessageAction, message: Message) => void;
}

/** What a message's menu does. */
export type MessageAction = 'edit' | 'branch' | 'delete' | 'delete_from' | 'prompt';

/** The "⋮" of a saved message: edit (text only), branch from here, delete, delete from here. */
function MessageMenu({
  t,
  message,
  busy,
  onAction,
  isLastBot = false,
  onCopy,
}: {
  t: TFunction;
  message: Message;
  busy: boolean;
  onAction?: MessageBubbleProps['onMessageAction'];
  /** The last reply: its menu also shows what went into its prompt (docs/lorebooks.md). */
  isLastBot?: boolean;
  /** The user's own message: its copy button shows only on hover, so on a phone it is here. */
  onCopy?: () => void;
}) {
  if (!onAction || busy || message.id.startsWith('local-') || message.state === 'streaming') return null;
  const items: MenuItem[] = [];
  if (onCopy && message.text) items.push({ id: 'copy', label: t('chat.copy'), icon: Copy, onSelect: onCopy });
  if (isLastBot && message.role === 'bot' && message.reply_to)
    items.push({
      id: 'prompt',
      label: t('chat.trace.menu'),
      icon: ScrollText,
      onSelect: () => onAction('prompt', message),
    });
  if (message.kind === MessageKind.Text && message.text)
    items.push({ id: 'edit', label: t('chat.story.edit'), icon: Pencil, onSelect: () => onAction('edit', message) });
  items.push(
    { id: 'branch', label: t('chat.story.branch'), icon: GitBranch, onSelect: () => onAction('branch', message) },
    { id: 'delete', label: t('chat.story.delete'), icon: Trash2, onSelect: () => onAction('delete', message) },
    {
      id: 'delete-from',
      label: t('chat.story.delete_from'),
      icon: ListX,
      onSelect: () => onAction('delete_from', message),
    },
  );
  return (
    <MenuButton
      label={t('chat.story.message_menu')}
      items={items}
      testId="message-menu"
      align={message.role === 'user' ? 'right' : 'left'}
      compact
    />
  );
}

/**
 * The marks below are plain functions of the row's `t`, called only when they show: a long
 * chat's list mounts rows again and again while scrolling, and a component (with its own
 * subscription to the language) for each mark of each row, mostly to render nothing, costs
 * (docs/chat.md "Long chats").
 */

/** "edited" under a message the user changed. */
function editedMark(t: TFunction, message: Message) {
  if (!message.edited_at) return null;
  return (
    <span className="px-1 text-[0.7rem] text-muted" data-testid="message-edited">
      {t('chat.story.edited')}
    </span>
  );
}

const isPicture = (message: Message) => message.kind === MessageKind.Image || message.kind === MessageKind.BlurImage;

/** How far a finger must travel sideways to count as a swipe. */
const SWIPE_MIN_PX = 60;

/** "Only you see this" on a private message of a scene (a crisis reply, the AI disclosure on joining). */
function privateMark(t: TFunction, message: Message) {
  if (!message.private) return null;
  return (
    <span className="flex items-center gap-1 px-1 text-[0.7rem] text-muted" data-testid="message-private">
      <Icon icon={EyeOff} size="sm" className="h-3 w-3" />
      {t('scenes.only_you')}
    </span>
  );
}

/** The speaker's name over a message of a group chat (a character's, or another person's). */
function SpeakerName({ name, person = false }: { name: string; person?: boolean }) {
  return (
    <span
      className={`px-1 text-xs font-semibold ${person ? 'text-sky-300' : 'text-primary'}`}
      data-testid="message-speaker"
    >
      {name}
    </span>
  );
}

function Avatar({ url }: { url: string | null }) {
  return url ? (
    <img src={url} alt="" className="h-8 w-8 shrink-0 rounded-full object-cover" />
  ) : (
    <span className="h-8 w-8 shrink-0 rounded-full bg-surface" aria-hidden="true" />
  );
}

/** Another person's message in a shared scene: on the left, with their name and picture. */
function PersonMessage({ message, name, avatar }: { message: Message; name: string; avatar: string | null }) {
  return (
    <li className="flex flex-col gap-1 pr-10" data-testid="message-person" data-state={message.state}>
      <div className="flex items-end gap-2">
        {avatar ? (
          <Avatar url={avatar} />
        ) : (
          <span
            className="flex h-8 w-8 shrink-0 items-center justify-center rounded-full bg-sky-900/60 text-sm font-semibold text-sky-200"
            aria-hidden="true"
          >
            {[...name][0]?.toLocaleUpperCase()}
          </span>
        )}
        <div className="flex min-w-0 flex-col items-start gap-0.5">
          <SpeakerName name={name} person />
          <p className="max-w-full rounded-2xl rounded-bl-sm border border-sky-300/20 bg-sky-950/40 px-4 py-2.5 text-[0.95rem] leading-relaxed break-words whitespace-pre-wrap sm:max-w-xl">
            <RoleplayText text={message.text} />
          </p>
        </div>
      </div>
    </li>
  );
}

const NOTICE_ICONS = { ai_disclosure: Info, crisis: LifeBuoy, refusal: ShieldAlert } as const;

/** A platform notice (AI disclosure, crisis resources, refusal): centred, not a speech bubble. */
function SystemNotice({ message, t }: { message: Message; t: TFunction }) {
  const notice = message.notice ?? 'ai_disclosure';
  const crisis = notice === 'crisis';
  return (
    <li className="flex justify-center px-2" data-testid="system-notice" data-notice={notice}>
      <div
        role="note"
        aria-label={t(`chat.notice.${notice}`)}
        className={`flex max-w-md items-start gap-2 rounded-2xl border px-4 py-2.5 text-xs leading-relaxed ${
          crisis ? 'border-amber-300/40 bg-amber-950/60 text-amber-50' : 'border-white/10 bg-white/5 text-muted'
        }`}
      >
        <Icon icon={NOTICE_ICONS[notice]} size="sm" className="mt-0.5 shrink-0" />
        <div className="flex flex-col gap-1">
          <p className="whitespace-pre-line">{message.text}</p>
          {privateMark(t, message)}
        </div>
      </div>
    </li>
  );
}

/**
 * When the message was sent: always in the accessibility tree, shown on hover or focus within
 * the message (desktop) and toggled by a tap on the bubble (phone). Hidden, its text is drawn
 * transparent (not `opacity: 0`, nor visually hidden with `position: absolute`, each of which
 * gives every row of a long list a box of its own to paint; docs/chat.md "Long chats").
 */
function MessageTime({
  iso,
  language,
  shown,
  hiddenClass,
}: {
  iso: string;
  language: string;
  shown: boolean;
  hiddenClass: string;
}) {
  const text = formatMessageTime(iso, language);
  if (!text) return null;
  return (
    <time
      dateTime={iso}
      // The full date (a tooltip) made when the pointer comes: not for every row rendered.
      onPointerEnter={(event) => (event.currentTarget.title = formatMessageDateTime(iso, language))}
      data-testid="message-time"
      data-shown={shown || undefined}
      className={`px-1 text-[0.7rem] whitespace-nowrap tabular-nums ${shown ? 'text-muted' : hiddenClass}`}
    >
      {text}
    </time>
  );
}

/**
 * A small phone on a message said in a call.
 */
function spokenMark(t: TFunction, message: Message) {
  if (!message.spoken) return null;
  return (
    <span className="px-0.5 text-muted" title={t('chat.spoken')} data-testid="message-spoken">
      <Icon icon={Phone} size="sm" className="h-3 w-3" aria-label={t('chat.spoken')} role="img" />
    </span>
  );
}

/** A small mark on a message the character wrote first (docs/companion.md), not an answer. */
function wroteFirstMark(t: TFunction, message: Message, name: string) {
  if (!message.proactive) return null;
  return (
    <span
      className="rounded-full bg-primary/15 px-2 py-0.5 text-[0.7rem] text-primary"
      title={t('chat.wrote_first_title', { name })}
      data-testid="message-wrote-first"
    >
      {t('chat.wrote_first')}
    </span>
  );
}

/** Three dots while the character starts to answer; with a note while the model loads. */
export function TypingIndicator({ name, warmingUp = false }: { name: string; warmingUp?: boolean }) {
  const { t } = useTranslation();
  return (
    <span
      className="flex flex-col gap-1 py-1"
      role="status"
      aria-label={t('chat.typing', { name })}
      data-testid="typing"
    >
      <span className="flex items-center gap-1">
        {[0, 1, 2].map((i) => (
          <span
            key={i}
            className="h-2 w-2 animate-bounce rounded-full bg-muted"
            style={{ animationDelay: `${i * 150}ms` }}
            aria-hidden="true"
          />
        ))}
      </span>
      {warmingUp && (
        <span className="text-xs text-muted" data-testid="warming-up">
          {t('chat.warming_up')}
        </span>
      )}
    </span>
  );
}

/** Why a reply failed, in the user's language. */
function failureText(t: (key: string) => string, code: string | null): string {
  switch (code) {
    case 'timeout':
    case 'provider_error':
    case 'model_unavailable':
    case 'model_loading':
    case 'empty_reply':
    case 'interrupted':
    case 'network':
    case 'rate_limited':
      return t(`chat.failed.${code}`);
    default:
      return t('chat.failed.default');
  }
}

/**
 * One message: the user's on the right, the character's on the left, notices centred.
 * Memoised: a long chat's list renders its rows again on every scroll step and page, and a row
 * whose props (the message object, stable callbacks) did not change is not rendered again.
 */
export const MessageBubble = memo(function MessageBubble({
  message: saved,
  botName: chatBotName,
  botAvatar: chatBotAvatar,
  viewer,
  groupNames,
  isLastBot,
  busy,
  warmingUp = false,
  onRegenerate,
  onSelectAlternative,
  onReport,
  onResend,
  renderPicture,
  renderMessageExtras,
  onMessageAction,
}: MessageBubbleProps) {
  const { t, i18n } = useTranslation();
  // A group chat: each reply is her own (name, picture).
  const speaker = saved.speaker ?? null;
  const character = speaker?.kind === 'character' ? speaker : null;
  const botName = character?.name ?? chatBotName;
  const botAvatar = character ? character.avatar_url : chatBotAvatar;
  // Notices and picture captions in the language the reader uses now (lib/message-texts.ts).
  const localized = localizeMessage(saved, botName, t, currentLocale());
  const message =
    groupNames && localized.notice === 'ai_disclosure'
      ? { ...localized, text: t('scenes.ai_notice', { names: groupNames }) }
      : localized;
  const touchStart = useRef<{ x: number; y: number } | null>(null);
  const [timeShown, setTimeShown] = useState(false);
  const toggleTime = () => setTimeShown((shown) => !shown);
  if (message.role === 'system') return <SystemNotice message={message} t={t} />;
  if (message.role === 'user' && speaker?.kind === 'person' && viewer && speaker.user_id !== viewer)
    return <PersonMessage message={message} name={speaker.name} avatar={speaker.avatar_url} />;

  const copy = async () => {
    try {
      await navigator.clipboard.writeText(message.text);
      showAlert(t('chat.copied'));
    } catch {
      showAlert(t('chat.copy_failed'), { type: 'error' });
    }
  };

  if (message.role === 'user') {
    const sending = message.state === 'streaming';
    const refused = message.state === 'failed' && message.error_code === 'refused';
    const notSent = message.state === 'failed' && !refused;
    return (
      <li className="group flex flex-col items-end gap-1 pl-10" data-testid="message-user" data-state={message.state}>
        {message.text && (
          <p
            onClick={toggleTime}
            className={`max-w-[85%] rounded-2xl rounded-br-sm bg-primary px-4 py-2.5 text-[0.95rem] leading-relaxed break-words whitespace-pre-wrap text-on-primary sm:max-w-[70%] ${
              sending ? 'opacity-70' : ''
            }`}
          >
            <RoleplayText text={message.text} />
          </p>
        )}
        {refused ? (
          <p className="flex items-center gap-2 text-xs text-muted" data-testid="message-refused">
            <Icon icon={ShieldAlert} size="sm" />
            {t('chat.refused')}
          </p>
        ) : notSent ? (
          <p className="flex items-center gap-2 text-xs text-red-300">
            <Icon icon={TriangleAlert} size="sm" />
            {t('chat.not_sent')}
            {onResend && (
              <button type="button" onClick={() => onResend(message)} disabled={busy} className={failureActionClass}>
                {t('chat.send_again')}
              </button>
            )}
          </p>
        ) : (
          <div className="flex items-center">
            {editedMark(t, message)}
            {spokenMark(t, message)}
            {!sending && (
              <MessageTime
                iso={message.created_at}
                language={i18n.language}
                shown={timeShown}
                hiddenClass="text-transparent sm:group-focus-within:text-muted sm:group-hover:text-muted"
              />
            )}
            <div className="hidden transition-opacity sm:flex sm:opacity-0 sm:group-focus-within:opacity-100 sm:group-hover:opacity-100">
              {!sending && <IconButton look="small" icon={Copy} label={t('chat.copy')} onClick={() => void copy()} />}
            </div>
            <MessageMenu t={t} message={message} busy={busy} onAction={onMessageAction} onCopy={() => void copy()} />
          </div>
        )}
      </li>
    );
  }

  const streaming = message.state === 'streaming';
  const failed = message.state === 'failed';
  const picture = isPicture(message);
  const showAlternatives = message.alt_count > 1 && !streaming;
  // On touch screens a horizontal swipe on the reply shows the next or previous alternative.
  const swipe = showAlternatives && onSelectAlternative && !busy;
  const onTouchStart = (event: TouchEvent) => {
    const touch = event.touches[0];
    touchStart.current = touch ? { x: touch.clientX, y: touch.clientY } : null;
  };
  const onTouchEnd = (event: TouchEvent) => {
    const start = touchStart.current;
    const touch = event.changedTouches[0];
    touchStart.current = null;
    if (!start || !touch) return;
    const dx = touch.clientX - start.x;
    if (Math.abs(dx) < SWIPE_MIN_PX || Math.abs(touch.clientY - start.y) > Math.abs(dx) / 2) return;
    const index = message.alt_index + (dx < 0 ? 1 : -1);
    if (index >= 0 && index < message.alt_count) onSelectAlternative?.(message, index);
  };
  // Stopped before its first word: no empty bubble, the note under the avatar says so.
  const stoppedEmpty = message.state === 'stopped' && !message.text && !picture;
  const bubbleShown = Boolean(message.text) || streaming || (!picture && !failed && !stoppedEmpty);
  const failure = (
    <div className="flex flex-wrap items-center gap-2 text-xs text-red-300" data-testid="message-failed">
      <Icon icon={TriangleAlert} size="sm" />
      <span role="alert">{failureText(t, message.error_code)}</span>
      {onRegenerate && (
        <IconTextButton
          icon={RotateCcw}
          onClick={() => onRegenerate(message)}
          disabled={busy}
          testId="retry-button"
          className={`flex items-center gap-1 ${failureActionClass}`}
        >
          {t('chat.retry')}
        </IconTextButton>
      )}
    </div>
  );
  return (
    <li
      className="group flex flex-col gap-1 pr-6"
      data-testid="message-bot"
      data-state={message.state}
      data-id={message.id}
    >
      <div className="flex items-end gap-2">
        {botAvatar ? (
          <img src={botAvatar} alt="" className="h-8 w-8 shrink-0 rounded-full object-cover" />
        ) : (
          <span className="h-8 w-8 shrink-0 rounded-full bg-surface" aria-hidden="true" />
        )}
        <div className="flex min-w-0 flex-col items-start gap-1">
          {character && <SpeakerName name={character.name} />}
          {wroteFirstMark(t, message, botName)}
          {picture && renderPicture ? renderPicture(message) : null}
          {failed && !bubbleShown && !picture && (
            <div className="rounded-2xl rounded-bl-sm border border-red-400/30 bg-red-950/30 px-3 py-2.5">
              {failure}
            </div>
          )}
          {bubbleShown && (
            <div
              aria-busy={streaming || undefined}
              onClick={toggleTime}
              onTouchStart={swipe ? onTouchStart : undefined}
              onTouchEnd={swipe ? onTouchEnd : undefined}
              className={`max-w-full rounded-2xl rounded-bl-sm border px-4 py-2.5 text-[0.95rem] leading-relaxed break-words whitespace-pre-wrap sm:max-w-xl ${
                failed ? 'border-red-400/30 bg-red-950/30' : 'border-white/5 bg-surface'
              }`}
            >
              {streaming && !message.text ? (
                <TypingIndicator name={botName} warmingUp={warmingUp} />
              ) : (
                <span data-testid={message.reply_to === null ? 'greeting' : 'message-text'}>
                  <RoleplayText text={message.text} streaming={streaming} />
                  {streaming && (
                    <span
                      className="ml-0.5 inline-block h-4 w-1.5 animate-pulse bg-fg/60 align-middle"
                      aria-hidden="true"
                    />
                  )}
                </span>
              )}
            </div>
          )}
        </div>
      </div>
      <div className="flex min-w-0 flex-col items-start gap-1 pl-10">
        {failed && (bubbleShown || picture) && failure}
        {message.state === 'stopped' && (
          <span className="text-xs text-muted" data-testid="message-stopped">
            {t(stoppedEmpty ? 'chat.stopped_empty' : 'chat.stopped')}
          </span>
        )}
        {!streaming && (
          <div className="flex flex-wrap items-center gap-0.5">
            {showAlternatives && (
              <div className="mr-1 flex items-center" role="group" aria-label={t('chat.alternatives')}>
                <IconButton
                  look="small"
                  icon={ChevronLeft}
                  label={t('chat.previous_alt')}
                  disabled={busy || message.alt_index <= 0}
                  onClick={() => onSelectAlternative?.(message, message.alt_index - 1)}
                  testId="alt-previous"
                />
                <span className="min-w-8 text-center text-xs text-muted tabular-nums" data-testid="alt-position">
                  {t('chat.alt_position', { index: message.alt_index + 1, total: message.alt_count })}
                </span>
                <IconButton
                  look="small"
                  icon={ChevronRight}
                  label={t('chat.next_alt')}
                  disabled={busy || message.alt_index >= message.alt_count - 1}
                  onClick={() => onSelectAlternative?.(message, message.alt_index + 1)}
                  testId="alt-next"
                />
              </div>
            )}
            {message.text && <IconButton look="small" icon={Copy} label={t('chat.copy')} onClick={() => void copy()} />}
            {isLastBot && !failed && message.reply_to && onRegenerate && (
              <IconButton
                look="small"
                icon={RefreshCw}
                label={t('chat.regenerate')}
                disabled={busy}
                onClick={() => onRegenerate(message)}
                testId="regenerate-button"
              />
            )}
            {onReport && (message.text || picture) && (
              <IconButton
                look="small"
                icon={Flag}
                label={t('chat.report')}
                onClick={() => onReport(message)}
                testId="report-button"
              />
            )}
            {renderMessageExtras?.(message)}
            <MessageMenu t={t} message={message} busy={busy} onAction={onMessageAction} isLastBot={isLastBot} />
            {privateMark(t, message)}
            {editedMark(t, message)}
            {spokenMark(t, message)}
            <MessageTime
              iso={message.created_at}
              language={i18n.language}
              shown={timeShown}
              hiddenClass="text-transparent group-focus-within:text-muted group-hover:text-muted"
            />
          </div>
        )}
      </div>
    </li>
  );
});
