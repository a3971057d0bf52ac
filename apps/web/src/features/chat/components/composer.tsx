import '../texts';
import { useLayoutEffect, useRef, useState, type FormEvent, type KeyboardEvent } from 'react';
import { useTranslation } from '../../../lib/i18n';
import { SendHorizontal, Square } from 'lucide-react';
import { MESSAGE_TEXT_MAX } from '@reverie/shared';
import { Icon } from '../../../components/ui/icon';
import { openDraft, writeDraft } from '../drafts';

export interface ComposerProps {
  botName: string;
  /** Sends the text; true when it was taken (the field empties). */
  onSend: (text: string) => boolean;
  /** A reply is being written or a message is on its way: sending waits, stop shows. */
  busy: boolean;
  /** Shows the stop button while busy. */
  onStop?: () => void;
  /** Keeps an unsent draft for this tab under this key (`drafts.ts`: a chat's, or a character's). */
  draftKey?: string;
  /** Where a draft not yet under `draftKey` may be (the character's): it moves to `draftKey` once. */
  draftFallbackKey?: string;
}

/** Counter appears when this much of the limit is used. */
const COUNTER_FROM = MESSAGE_TEXT_MAX - 500;

/**
 * The message field: Enter sends, Shift+Enter starts a new line (an IME composition is never
 * cut short), at most 4000 characters; while a reply is written the send button is a stop
 * button and sending waits.
 */
export function Composer({ botName, onSend, busy, onStop, draftKey, draftFallbackKey }: ComposerProps) {
  const { t } = useTranslation();
  const [text, setTextState] = useState(() => (draftKey ? openDraft(draftKey, draftFallbackKey) : ''));
  const setText = (next: string) => {
    setTextState(next);
    if (draftKey) writeDraft(draftKey, next);
  };
  const field = useRef<HTMLTextAreaElement>(null);
  const canSend = text.trim().length > 0 && !busy;

  // The field grows with its text up to a few lines.
  useLayoutEffect(() => {
    const element = field.current;
    if (!element) return;
    element.style.height = 'auto';
    element.style.height = `${Math.min(element.scrollHeight, 160)}px`;
  }, [text]);

  const submit = () => {
    if (!canSend) return;
    if (onSend(text)) setText('');
  };
  const onSubmit = (event: FormEvent) => {
    event.preventDefault();
    submit();
  };
  const onKeyDown = (event: KeyboardEvent<HTMLTextAreaElement>) => {
    if (event.key !== 'Enter' || event.shiftKey || event.nativeEvent.isComposing) return;
    event.preventDefault();
    submit();
  };

  return (
    <form
      onSubmit={onSubmit}
      className="border-t border-white/10 bg-bg/95 px-3 pt-2 pb-[calc(0.5rem+env(safe-area-inset-bottom))] backdrop-blur sm:px-4"
      data-testid="composer"
    >
      <div className="mx-auto flex w-full max-w-3xl items-end gap-2">
        <label className="relative flex min-w-0 flex-1">
          <span className="sr-only">{t('chat.composer_label', { name: botName })}</span>
          <textarea
            ref={field}
            value={text}
            onChange={(event) => setText(event.target.value.slice(0, MESSAGE_TEXT_MAX))}
            onKeyDown={onKeyDown}
            rows={1}
            maxLength={MESSAGE_TEXT_MAX}
            placeholder={t('chat.composer_placeholder', { name: botName })}
            enterKeyHint="send"
            className="max-h-40 min-h-11 w-full resize-none rounded-3xl border border-white/10 bg-surface px-4 py-2.5 text-[0.95rem] leading-relaxed placeholder:text-muted focus:border-primary/60 focus:outline-none"
          />
          {text.length >= COUNTER_FROM && (
            <span
              className="absolute -top-5 right-3 text-[0.7rem] text-muted tabular-nums"
              aria-live="polite"
              data-testid="char-count"
            >
              {t('chat.char_count', { used: text.length, max: MESSAGE_TEXT_MAX })}
            </span>
          )}
        </label>
        {busy && onStop ? (
          <button
            type="button"
            onClick={onStop}
            aria-label={t('chat.stop')}
            title={t('chat.stop')}
            data-testid="stop-button"
            className="flex h-11 w-11 shrink-0 items-center justify-center rounded-full border border-white/20 bg-surface text-fg hover:bg-white/10"
          >
            <Icon icon={Square} size="sm" className="fill-current" />
          </button>
        ) : (
          <button
            type="submit"
            disabled={!canSend}
            aria-label={t('chat.send')}
            title={t('chat.send')}
            data-testid="send-button"
            className="flex h-11 w-11 shrink-0 items-center justify-center rounded-full bg-primary text-on-primary shadow-lg shadow-primary/30 hover:brightness-110 disabled:opacity-40 disabled:shadow-none"
          >
            <Icon icon={SendHorizontal} size="md" />
          </button>
        )}
      </div>
    </form>
  );
}
