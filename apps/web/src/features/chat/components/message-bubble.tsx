import '../texts';
import { useRef, useState, type ReactNode, type TouchEvent } from 'react';
import {
  ChevronLeft,
  ChevronRight,
  Copy,
  Flag,
  Info,
  LifeBuoy,
  Phone,
  RefreshCw,
  RotateCcw,
  ShieldAlert,
  TriangleAlert,
} from 'lucide-react';
import { MessageKind, type Message } from '@reverie/shared';
import { showAlert } from '../../../components/ui/alerts';
import { Icon } from '../../../components/ui/icon';
import { RoleplayText } from '../../../components/ui/roleplay-text';
import { formatMessageDateTime, formatMessageTime } from '../../../lib/message-time';
import { currentLocale, useTranslation } from '../../../lib/i18n';
import { localizeMessage } from '../../../lib/message-texts';

export interface MessageBubbleProps {
  message: Message;
  botName: string;
  botAvatar: string | null;
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
}

const isPicture = (message: Message) => message.kind === MessageKind.Image || message.kind === MessageKind.BlurImage;

/** How far a finger must travel sideways to count as a swipe. */
const SWIPE_MIN_PX = 60;

const NOTICE_ICONS = { ai_disclosure: Info, crisis: LifeBuoy, refusal: ShieldAlert } as const;

/** A platform notice (AI disclosure, crisis resources, refusal): centred, not a speech bubble. */
function SystemNotice({ message }: { message: Message }) {
  const { t } = useTranslation();
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
        <p className="whitespace-pre-line">{message.text}</p>
      </div>
    </li>
  );
}

function ActionButton({
  icon,
  label,
  onClick,
  disabled,
  testId,
}: {
  icon: typeof Copy;
  label: string;
  onClick: () => void;
  disabled?: boolean;
  testId?: string;
}) {
  return (
    <button
      type="button"
      onClick={onClick}
      disabled={disabled}
      aria-label={label}
      title={label}
      data-testid={testId}
      className="rounded-full p-1 text-muted hover:bg-white/10 hover:text-fg disabled:opacity-40 disabled:hover:bg-transparent"
    >
      <Icon icon={icon} size="sm" />
    </button>
  );
}

/**
 * When the message was sent: always in the accessibility tree, shown on hover or focus within
 * the message (desktop) and toggled by a tap on the bubble (phone).
 */
function MessageTime({ iso, shown, hiddenClass }: { iso: string; shown: boolean; hiddenClass: string }) {
  const { i18n } = useTranslation();
  const text = formatMessageTime(iso, i18n.language);
  if (!text) return null;
  return (
    <time
      dateTime={iso}
      title={formatMessageDateTime(iso, i18n.language)}
      data-testid="message-time"
      data-shown={shown || undefined}
      className={`px-1 text-[0.7rem] whitespace-nowrap text-muted tabular-nums transition-opacity ${shown ? '' : hiddenClass}`}
    >
      {text}
    </time>
  );
}

/**
 * A small phone on a message said in a call.
 */
function SpokenMark({ message }: { message: Message }) {
  const { t } = useTranslation();
  if (!message.spoken) return null;
  return (
    <span className="px-0.5 text-muted" title={t('chat.spoken')} data-testid="message-spoken">
      <Icon icon={Phone} size="sm" className="h-3 w-3" aria-label={t('chat.spoken')} role="img" />
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

/** One message: the user's on the right, the character's on the left, notices centred. */
export function MessageBubble({
  message: saved,
  botName,
  botAvatar,
  isLastBot,
  busy,
  warmingUp = false,
  onRegenerate,
  onSelectAlternative,
  onReport,
  onResend,
  renderPicture,
  renderMessageExtras,
}: MessageBubbleProps) {
  const { t } = useTranslation();
  // Notices and picture captions in the language the reader uses now (lib/message-texts.ts).
  const message = localizeMessage(saved, botName, t, currentLocale());
  const touchStart = useRef<{ x: number; y: number } | null>(null);
  const [timeShown, setTimeShown] = useState(false);
  const toggleTime = () => setTimeShown((shown) => !shown);
  if (message.role === 'system') return <SystemNotice message={message} />;

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
              <button
                type="button"
                onClick={() => onResend(message)}
                disabled={busy}
                className="rounded-full border border-red-300/40 px-2.5 py-0.5 font-semibold hover:bg-red-300/10 disabled:opacity-50"
              >
                {t('chat.send_again')}
              </button>
            )}
          </p>
        ) : (
          <div className="flex items-center">
            <SpokenMark message={message} />
            {!sending && (
              <MessageTime
                iso={message.created_at}
                shown={timeShown}
                hiddenClass="max-sm:sr-only sm:opacity-0 sm:group-focus-within:opacity-100 sm:group-hover:opacity-100"
              />
            )}
            <div className="hidden transition-opacity sm:flex sm:opacity-0 sm:group-focus-within:opacity-100 sm:group-hover:opacity-100">
              {!sending && <ActionButton icon={Copy} label={t('chat.copy')} onClick={() => void copy()} />}
            </div>
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
  const bubbleShown = Boolean(message.text) || streaming || (!picture && !failed);
  const failure = (
    <div className="flex flex-wrap items-center gap-2 text-xs text-red-300" data-testid="message-failed">
      <Icon icon={TriangleAlert} size="sm" />
      <span role="alert">{failureText(t, message.error_code)}</span>
      {onRegenerate && (
        <button
          type="button"
          onClick={() => onRegenerate(message)}
          disabled={busy}
          data-testid="retry-button"
          className="flex items-center gap-1 rounded-full border border-red-300/40 px-2.5 py-0.5 font-semibold hover:bg-red-300/10 disabled:opacity-50"
        >
          <Icon icon={RotateCcw} size="sm" />
          {t('chat.retry')}
        </button>
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
        {message.state === 'stopped' && <span className="text-xs text-muted">{t('chat.stopped')}</span>}
        {!streaming && (
          <div className="flex flex-wrap items-center gap-0.5">
            {showAlternatives && (
              <div className="mr-1 flex items-center" role="group" aria-label={t('chat.alternatives')}>
                <ActionButton
                  icon={ChevronLeft}
                  label={t('chat.previous_alt')}
                  disabled={busy || message.alt_index <= 0}
                  onClick={() => onSelectAlternative?.(message, message.alt_index - 1)}
                  testId="alt-previous"
                />
                <span className="min-w-8 text-center text-xs text-muted tabular-nums" data-testid="alt-position">
                  {t('chat.alt_position', { index: message.alt_index + 1, total: message.alt_count })}
                </span>
                <ActionButton
                  icon={ChevronRight}
                  label={t('chat.next_alt')}
                  disabled={busy || message.alt_index >= message.alt_count - 1}
                  onClick={() => onSelectAlternative?.(message, message.alt_index + 1)}
                  testId="alt-next"
                />
              </div>
            )}
            {message.text && <ActionButton icon={Copy} label={t('chat.copy')} onClick={() => void copy()} />}
            {isLastBot && !failed && message.reply_to && onRegenerate && (
              <ActionButton
                icon={RefreshCw}
                label={t('chat.regenerate')}
                disabled={busy}
                onClick={() => onRegenerate(message)}
                testId="regenerate-button"
              />
            )}
            {onReport && (message.text || picture) && (
              <ActionButton
                icon={Flag}
                label={t('chat.report')}
                onClick={() => onReport(message)}
                testId="report-button"
              />
            )}
            {renderMessageExtras?.(message)}
            <SpokenMark message={message} />
            <MessageTime
              iso={message.created_at}
              shown={timeShown}
              hiddenClass="opacity-0 group-focus-within:opacity-100 group-hover:opacity-100"
            />
          </div>
        )}
      </div>
    </li>
  );
}
