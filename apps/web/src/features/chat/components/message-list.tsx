import '../texts';
import { useCallback, useEffect, useLayoutEffect, useRef, type ReactNode } from 'react';
import { useTranslation } from '../../../lib/i18n';
import { Loader2 } from 'lucide-react';
import type { Message } from '@reverie/shared';
import { Icon } from '../../../components/ui/icon';
import { MessageBubble, TypingIndicator, type MessageBubbleProps } from './message-bubble';

type BubbleActions = Pick<
  MessageBubbleProps,
  'onRegenerate' | 'onSelectAlternative' | 'onReport' | 'onResend' | 'renderPicture' | 'renderMessageExtras'
>;

export interface MessageListProps extends BubbleActions {
  messages: Message[];
  botName: string;
  botAvatar: string | null;
  lastBotId: string | null;
  busy: boolean;
  /** A message was sent and the reply has not started: a typing indicator at the end. */
  waitingForReply: boolean;
  /** The reply waiting for the model to load: its typing indicator says so. */
  warmingUpId?: string | null;
  hasOlder: boolean;
  isLoadingOlder: boolean;
  loadOlder: () => void;
  /** Shown above the first message once the whole history is loaded (the character's intro). */
  intro?: ReactNode;
}

/** Within this many pixels of an edge counts as at that edge. */
const EDGE = 160;

/**
 * The conversation, oldest at the top. Older pages load when the top is reached and the
 * view stays on the message the user was reading; new text keeps the view at the bottom
 * while the user is there (scrolling up to read is never interrupted).
 */
export function MessageList({
  messages,
  botName,
  botAvatar,
  lastBotId,
  busy,
  waitingForReply,
  warmingUpId = null,
  hasOlder,
  isLoadingOlder,
  loadOlder,
  intro,
  ...actions
}: MessageListProps) {
  const { t } = useTranslation();
  const container = useRef<HTMLDivElement>(null);
  /** Distance from the content's end to the top of the view, before the last change. */
  const fromEnd = useRef<number | null>(null);
  const atBottom = useRef(true);
  const firstId = useRef<string | null>(null);
  const lastText = messages.length ? messages[messages.length - 1]!.text.length : 0;

  const remember = useCallback(() => {
    const element = container.current;
    if (!element) return;
    fromEnd.current = element.scrollHeight - element.scrollTop;
    atBottom.current = element.scrollHeight - element.scrollTop - element.clientHeight < EDGE;
  }, []);

  const onScroll = () => {
    remember();
    const element = container.current;
    if (element && element.scrollTop < EDGE && hasOlder && !isLoadingOlder) loadOlder();
  };

  useLayoutEffect(() => {
    const element = container.current;
    if (!element) return;
    const first = messages[0]?.id ?? null;
    const prepended = firstId.current !== null && first !== firstId.current && fromEnd.current !== null;
    if (prepended) element.scrollTop = element.scrollHeight - fromEnd.current!;
    else if (atBottom.current) element.scrollTop = element.scrollHeight;
    firstId.current = first;
    remember();
    // A short history that does not fill the view: fetch further back at once.
    if (messages.length && hasOlder && !isLoadingOlder && element.scrollHeight <= element.clientHeight) loadOlder();
  }, [messages, lastText, waitingForReply, hasOlder, isLoadingOlder, loadOlder, remember]);

  // A picture (or avatar) that finishes loading grows the content: stay at the bottom if the
  // user was there, so a requested picture comes into view. `load` does not bubble: listened
  // to in the capture phase on the scroll box.
  useEffect(() => {
    const element = container.current;
    if (!element) return;
    const onLoad = (event: Event) => {
      if (!(event.target instanceof HTMLImageElement) || !atBottom.current) return;
      element.scrollTop = element.scrollHeight;
      remember();
    };
    element.addEventListener('load', onLoad, true);
    return () => element.removeEventListener('load', onLoad, true);
  }, [remember]);

  return (
    <div
      ref={container}
      onScroll={onScroll}
      className="flex-1 overflow-y-auto overscroll-contain"
      data-testid="message-scroller"
    >
      <div className="mx-auto flex w-full max-w-3xl flex-col gap-3 px-3 py-4 sm:px-4">
        {hasOlder ? (
          <div className="flex justify-center py-1">
            {isLoadingOlder ? (
              <span className="flex items-center gap-2 text-xs text-muted" role="status">
                <Icon icon={Loader2} size="sm" className="animate-spin" />
                {t('chat.loading_older')}
              </span>
            ) : (
              <button
                type="button"
                onClick={loadOlder}
                className="rounded-full px-3 py-1 text-xs text-muted hover:bg-white/5 hover:text-fg"
              >
                {t('chat.load_older')}
              </button>
            )}
          </div>
        ) : (
          intro
        )}
        <ol role="log" aria-label={t('chat.messages_label', { name: botName })} className="flex flex-col gap-3">
          {messages.map((message) => (
            <MessageBubble
              key={message.id}
              message={message}
              botName={botName}
              botAvatar={botAvatar}
              isLastBot={message.id === lastBotId}
              busy={busy}
              warmingUp={message.id === warmingUpId}
              {...actions}
            />
          ))}
          {waitingForReply && (
            <li className="flex items-end gap-2">
              {botAvatar ? (
                <img src={botAvatar} alt="" className="h-8 w-8 shrink-0 rounded-full object-cover" />
              ) : (
                <span className="h-8 w-8 shrink-0 rounded-full bg-surface" aria-hidden="true" />
              )}
              <div className="rounded-2xl rounded-bl-sm border border-white/5 bg-surface px-4 py-2.5">
                <TypingIndicator name={botName} />
              </div>
            </li>
          )}
        </ol>
      </div>
    </div>
  );
}
