import '../texts';
import { useEffect, useRef, useState, type ReactNode } from 'react';
import { ArrowLeft, MessageSquareShare } from 'lucide-react';
import { CHAT_MESSAGE_SEARCH_MAX, type Message } from '@reverie/shared';
import { Icon } from '../../../components/ui/icon';
import { Modal } from '../../../components/ui/modal';
import { Skeleton } from '../../../components/ui/page';
import { formatMessageDateTime } from '../../../lib/message-time';
import { useTranslation } from '../../../lib/i18n';
import { useSearchQuery } from '../../../lib/use-debounced';
import { useAround } from '../api/get-around';
import { useChatSearch } from '../api/search-chat';

/** The text with its found words in `<mark>` (ranges in UTF-16 code units; the text stays text). */
export function Highlighted({ text, ranges }: { text: string; ranges: [number, number][] }) {
  const parts: ReactNode[] = [];
  let at = 0;
  ranges.forEach(([start, end], i) => {
    if (start < at || end > text.length) return;
    if (start > at) parts.push(text.slice(at, start));
    parts.push(
      <mark key={i} className="rounded bg-primary/40 px-0.5 text-fg" data-testid="search-mark">
        {text.slice(start, end)}
      </mark>,
    );
    at = end;
  });
  if (at < text.length) parts.push(text.slice(at));
  return <>{parts}</>;
}

/** The found message of one hit and its found words, for the neighbourhood's copy of its text. */
type Hit = { id: string; ranges: [number, number][]; message: Message };

/** Who wrote a message, in a line. */
function Speaker({ message, botName }: { message: Message; botName: string }) {
  const { t, i18n } = useTranslation();
  return (
    <span className="text-xs text-muted">
      {message.role === 'user' ? t('chat.story.you') : botName} ·{' '}
      <time dateTime={message.created_at}>{formatMessageDateTime(message.created_at, i18n.language)}</time>
    </span>
  );
}

/** The page of the history around a hit, oldest first, the hit marked and scrolled into view. */
function Neighbourhood({ chatId, hit, botName }: { chatId: string; hit: Hit; botName: string }) {
  const { t } = useTranslation();
  const around = useAround(chatId, hit.id);
  const target = useRef<HTMLLIElement>(null);
  // A block, not an arrow's value: Chromium's `scrollIntoView` answers a Promise, which React
  // would take for the effect's clean-up and call when the hit closes (a crash).
  useEffect(() => {
    target.current?.scrollIntoView?.({ block: 'center' });
  }, [around.data]);
  if (around.isPending) return <Skeleton className="h-40 w-full" />;
  if (around.isError)
    return (
      <p role="alert" className="text-sm text-red-300">
        {t('chat.load_failed')}
      </p>
    );
  const messages = [...around.data.results].reverse().filter((m) => m.role !== 'system');
  return (
    <ol className="flex max-h-[60dvh] flex-col gap-2 overflow-y-auto" data-testid="search-neighbourhood">
      {messages.map((message) => {
        const isHit = message.id === hit.id;
        return (
          <li
            key={message.id}
            ref={isHit ? target : undefined}
            data-testid={isHit ? 'around-hit' : 'around-message'}
            className={`flex flex-col gap-0.5 rounded-2xl px-3 py-2 ${
              isHit ? 'border border-primary/60 bg-primary/10' : 'bg-white/5'
            }`}
          >
            <Speaker message={message} botName={botName} />
            <p className="text-sm break-words whitespace-pre-wrap">
              {isHit ? <Highlighted text={message.text} ranges={hit.ranges} /> : message.text}
            </p>
          </li>
        );
      })}
    </ol>
  );
}

/** The query field and the hits, newest first, the found words marked. */
function Results({ chatId, botName, onOpen }: { chatId: string; botName: string; onOpen: (hit: Hit) => void }) {
  const { t } = useTranslation();
  const { search: text, setSearch: setText, query } = useSearchQuery({ trim: false });
  const search = useChatSearch(chatId, query);
  const hits = search.data?.results ?? [];
  return (
    <div className="flex flex-col gap-3">
      <label className="flex flex-col">
        <span className="sr-only">{t('chat.story.search_label')}</span>
        <input
          type="search"
          value={text}
          onChange={(event) => setText(event.target.value.slice(0, CHAT_MESSAGE_SEARCH_MAX))}
          placeholder={t('chat.story.search_placeholder')}
          autoFocus
          data-testid="chat-search-field"
          className="w-full rounded-full border border-white/10 bg-bg px-4 py-2.5 text-sm focus:border-primary/60 focus:outline-none"
        />
      </label>
      {search.isError ? (
        <p role="alert" className="text-sm text-red-300">
          {t('chat.load_failed')}
        </p>
      ) : query.trim() && search.data && hits.length === 0 ? (
        <p className="text-sm text-muted" data-testid="chat-search-empty">
          {t('chat.story.search_empty')}
        </p>
      ) : (
        <ul className="flex max-h-[60dvh] flex-col gap-1 overflow-y-auto" aria-live="polite">
          {hits.map(({ message, highlights }) => (
            <li key={message.id}>
              <button
                type="button"
                onClick={() => onOpen({ id: message.id, ranges: highlights, message })}
                data-testid="chat-search-hit"
                className="flex w-full flex-col gap-0.5 rounded-2xl px-3 py-2 text-left hover:bg-white/10"
              >
                <Speaker message={message} botName={botName} />
                <span className="line-clamp-3 text-sm break-words">
                  <Highlighted text={message.text} ranges={highlights} />
                </span>
              </button>
            </li>
          ))}
        </ul>
      )}
    </div>
  );
}

/**
 * Search in a chat (docs/chat.md "Search in a chat"): the hits with their words marked; opening
 * one loads the messages around it (`GET /api/chat/{id}/around/{message_id}`).
 */
export function ChatSearchDialog({
  open,
  chatId,
  botName,
  onClose,
  onShowInChat,
}: {
  open: boolean;
  chatId: string;
  botName: string;
  onClose: () => void;
  /** Opens the chat's own list at the hit (its neighbourhood loaded there), to read on or answer. */
  onShowInChat?: (message: Message) => void;
}) {
  const { t } = useTranslation();
  const [hit, setHit] = useState<Hit | null>(null);
  const close = () => {
    setHit(null);
    onClose();
  };
  return (
    <Modal open={open} onClose={close} title={t('chat.story.search_title')} size="lg">
      <div className={hit ? 'hidden' : undefined}>
        {open && <Results chatId={chatId} botName={botName} onOpen={setHit} />}
      </div>
      {hit && (
        <div className="flex flex-col gap-3">
          <div className="flex flex-wrap items-center justify-between gap-2">
            <button
              type="button"
              onClick={() => setHit(null)}
              className="flex items-center gap-1 rounded-full px-2 py-1 text-sm text-muted hover:text-fg"
              data-testid="search-back"
            >
              <Icon icon={ArrowLeft} size="sm" />
              {t('chat.story.search_back')}
            </button>
            {onShowInChat && (
              <button
                type="button"
                onClick={() => {
                  close();
                  onShowInChat(hit.message);
                }}
                className="flex items-center gap-1.5 rounded-full border border-primary/50 px-3 py-1.5 text-sm font-semibold text-primary hover:bg-primary/10"
                data-testid="search-show-in-chat"
              >
                <Icon icon={MessageSquareShare} size="sm" />
                {t('chat.story.search_show_in_chat')}
              </button>
            )}
          </div>
          <Neighbourhood chatId={chatId} hit={hit} botName={botName} />
        </div>
      )}
    </Modal>
  );
}
