import '../texts';
import { useLayoutEffect, useRef, useState, type FormEvent, type KeyboardEvent } from 'react';
import { useTranslation } from '../../../lib/i18n';
import { SendHorizontal, Square, WandSparkles } from 'lucide-react';
import { MESSAGE_TEXT_MAX } from '@reverie/shared';
import { Icon } from '../../../components/ui/icon';
import { IconButton } from '../../../components/ui/icon-button';
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
  /**
   * "Write my reply": streams the user's next line into the field (`onText` gets the whole line
   * so far); nothing is sent — the user edits and sends it. No button without it.
   */
  onWriteMyReply?: (onText: (text: string) => void, signal: AbortSignal) => Promise<void>;
  /** Suggested replies: chips above the field; a tap puts one into the field (never sends). */
  suggestions?: string[];
  /** The user typed (a group scene tells the others, at most every few seconds). */
  onTyping?: () => void;
  /** Names offered after `@` (a group chat's characters): a tap completes the mention. */
  mentions?: string[];
}

/** The `@word` being typed at the end of the text, if any. */
export function mentionQuery(text: string): string | null {
  const match = /(?:^|\s)@([^\s@]*)$/u.exec(text);
  return match ? match[1]! : null;
}

/** The names that complete `@query` (case-insensitive prefix of the name or of one of its words). */
export function mentionMatches(names: string[], query: string): string[] {
  const q = query.toLocaleLowerCase();
  return names.filter((name) =>
    name
      .toLocaleLowerCase()
      .split(/\s+/u)
      .concat(name.toLocaleLowerCase())
      .some((part) => part.startsWith(q)),
  );
}

/** A row of chips above the field (the names to mention, the suggested replies); a tap picks one. */
function ChipRow({
  label,
  testId,
  chips,
  text,
  onPick,
  chipTestId,
  chipClass,
}: {
  label: string;
  testId: string;
  chips: string[];
  text: (chip: string) => string;
  onPick: (chip: string) => void;
  chipTestId: string;
  chipClass: string;
}) {
  return (
    <ul className="mx-auto mb-2 flex w-full max-w-3xl gap-2 overflow-x-auto" aria-label={label} data-testid={testId}>
      {chips.map((chip) => (
        <li key={chip} className="shrink-0">
          <button
            type="button"
            onClick={() => onPick(chip)}
            data-testid={chipTestId}
            className={`${chipClass} border bg-surface px-3 py-1.5 text-sm hover:bg-white/10`}
          >
            {text(chip)}
          </button>
        </li>
      ))}
    </ul>
  );
}

/** Counter appears when this much of the limit is used. */
const COUNTER_FROM = MESSAGE_TEXT_MAX - 500;

/**
 * The message field: Enter sends, Shift+Enter starts a new line (an IME composition is never
 * cut short), at most 4000 characters; while a reply is written the send button is a stop
 * button and sending waits.
 */
export function Composer({
  botName,
  onSend,
  busy,
  onStop,
  draftKey,
  draftFallbackKey,
  onWriteMyReply,
  suggestions = [],
  onTyping,
  mentions = [],
}: ComposerProps) {
  const { t } = useTranslation();
  const [text, setTextState] = useState(() => (draftKey ? openDraft(draftKey, draftFallbackKey) : ''));
  const setText = (next: string) => {
    setTextState(next);
    if (draftKey) writeDraft(draftKey, next);
  };
  const field = useRef<HTMLTextAreaElement>(null);
  const [writing, setWriting] = useState<AbortController | null>(null);
  const canSend = text.trim().length > 0 && !busy && !writing;
  const query = mentions.length > 0 ? mentionQuery(text) : null;
  const mentionOptions = query === null ? [] : mentionMatches(mentions, query);
  const completeMention = (name: string) => {
    setText(`${text.slice(0, text.length - (query ?? '').length)}${name} `);
    field.current?.focus();
  };

  // The line streams into the field; the user reads, edits and sends it (or not).
  const writeMyReply = async () => {
    if (writing) {
      writing.abort();
      return;
    }
    if (!onWriteMyReply || busy) return;
    const controller = new AbortController();
    // What the user had typed comes back when no line came (a failure, a stop before the first
    // word): the wand never costs them their own words.
    const before = text;
    let wrote = false;
    setWriting(controller);
    setText('');
    try {
      await onWriteMyReply((line) => {
        wrote ||= line.length > 0;
        setText(line.slice(0, MESSAGE_TEXT_MAX));
      }, controller.signal);
    } finally {
      if (!wrote) setText(before);
      setWriting(null);
      field.current?.focus();
    }
  };

  // The field grows with its text up to a few lines. Empty, it keeps its one-line height from
  // CSS and nothing is measured: a measure lays the whole page out at once, which on opening a
  // chat came before the list had placed its rows (and was done again after them).
  useLayoutEffect(() => {
    const element = field.current;
    if (!element) return;
    if (!text) {
      element.style.height = '';
      return;
    }
    element.style.height = 'auto';
    const borders = element.offsetHeight - element.clientHeight;
    element.style.height = `${Math.min(element.scrollHeight + borders, 160)}px`;
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
      {mentionOptions.length > 0 && (
        <ChipRow
          label={t('scenes.mention_label')}
          testId="mention-options"
          chips={mentionOptions}
          text={(name) => `@${name}`}
          onPick={completeMention}
          chipTestId="mention-option"
          chipClass="rounded-full border-primary/40"
        />
      )}
      {suggestions.length > 0 && !writing && (
        <ChipRow
          label={t('chat.story.suggestions')}
          testId="suggestions"
          chips={suggestions}
          text={(suggestion) => suggestion}
          onPick={(suggestion) => {
            setText(suggestion);
            field.current?.focus();
          }}
          chipTestId="suggestion-chip"
          // Whole, on up to three lines: a suggestion is read before it is picked.
          chipClass="line-clamp-3 max-w-[15rem] rounded-2xl border-white/15 text-left leading-snug"
        />
      )}
      <div className="mx-auto flex w-full max-w-3xl items-end gap-2">
        {onWriteMyReply && (
          <button
            type="button"
            onClick={() => void writeMyReply()}
            disabled={busy && !writing}
            aria-label={writing ? t('chat.story.stop_writing') : t('chat.story.write_my_reply')}
            title={writing ? t('chat.story.stop_writing') : t('chat.story.write_my_reply')}
            aria-busy={writing ? true : undefined}
            data-testid="write-my-reply"
            className={`flex h-11 w-11 shrink-0 items-center justify-center rounded-full border border-white/10 text-muted hover:bg-white/10 hover:text-fg disabled:opacity-40 ${
              writing ? 'animate-pulse text-primary' : ''
            }`}
          >
            <Icon icon={WandSparkles} size="md" />
          </button>
        )}
        <label className="relative flex min-w-0 flex-1">
          <span className="sr-only">{t('chat.composer_label', { name: botName })}</span>
          <textarea
            ref={field}
            value={text}
            onChange={(event) => {
              setText(event.target.value.slice(0, MESSAGE_TEXT_MAX));
              onTyping?.();
            }}
            onKeyDown={onKeyDown}
            readOnly={Boolean(writing)}
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
          <IconButton icon={Square} label={t('chat.stop')} onClick={onStop} testId="stop-button" look="stop" />
        ) : (
          <IconButton
            icon={SendHorizontal}
            label={t('chat.send')}
            type="submit"
            disabled={!canSend}
            testId="send-button"
            look="send"
          />
        )}
      </div>
    </form>
  );
}
