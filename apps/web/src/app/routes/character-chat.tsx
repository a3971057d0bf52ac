import '../../lib/error-texts';
import { useCallback, useEffect, useState } from 'react';
import { useLocation, useNavigate, useParams, useSearchParams } from 'react-router';
import { useTranslation } from '../../lib/i18n';
import type { Message } from '@reverie/shared';
import { showAlert } from '../../components/ui/alerts';
import { useProfile } from '../../lib/profile';
import { useSession } from '../../lib/session';
import { useBot } from '../../features/characters/api/get-bot';
import { EditCharacterDialog, isOwnCharacter } from '../../features/characters/components/edit-character-dialog';
import { OwnCharacterReview } from '../../features/characters/components/review-notice';
import { chatPath } from '../../features/chat/api/chat-path';
import { useChat } from '../../features/chat/api/get-chat';
import { useChats } from '../../features/chat/api/get-chats';
import { ChatList, ChatListSkeleton } from '../../features/chat/components/chat-list';
import { useMediaQuery } from '../../lib/media-query';
import { useLatestChat } from '../../features/chat/api/get-or-create-chat';
import { ChatView, ChatViewSkeleton, GuestChatView } from '../../features/chat/components/chat-view';
import { ChatPicture } from '../../features/media/components/chat-picture';
import { CompanionDialog } from '../../features/companion';
import { useMountedOnce } from '../../lib/use-mounted-once';
import { VoiceButton } from '../../features/voice';
import { RememberedMark } from '../../features/memories/components/remembered-mark';
import { memoriesPath } from '../../features/memories/memories-path';
import { ApiRequestError } from '../../lib/api-client';
import { useModal } from '../../lib/modals';
import { ErrorView } from './error-page';
import { useNamedPageTitle } from '../route-meta';
import { useBack } from '../use-back';

/** A picture in the chat; an unblurred one becomes a clear picture in the conversation. */
const renderPicture = (message: Message, update: (changes: Partial<Message>) => void) => (
  <ChatPicture message={message} onUnblurred={(_id, imgUrl) => update({ kind: 2, img_url: imgUrl })} />
);

/** The voice button under a character's finished text reply (premium; others get the premium modal). */
const voiceButton = (message: Message) =>
  message.role === 'bot' &&
  message.kind === 1 &&
  message.text &&
  (message.state === 'done' || message.state === 'stopped') ? (
    <VoiceButton messageId={message.id} />
  ) : null;

/**
 * Under a character's reply: the voice button, and the "remembered" mark when the reply's
 * prompt held memories (features/memories).
 */
function useMessageExtras(viewer: string, bot: { slug: string; name: string }) {
  const { slug, name } = bot;
  return useCallback(
    (message: Message) => (
      <>
        {voiceButton(message)}
        {message.role === 'bot' && (
          // A group chat: the memories are the speaker's own (docs/groups.md).
          <RememberedMark
            memories={message.memories}
            viewer={viewer}
            slug={message.speaker?.kind === 'character' ? message.speaker.slug : slug}
            name={message.speaker?.kind === 'character' ? message.speaker.name : name}
          />
        )}
      </>
    ),
    [viewer, slug, name],
  );
}

function GuestChat({ slug }: { slug: string }) {
  const modal = useModal();
  const back = useBack('/');
  const bot = useBot(slug);
  if (bot.isPending) return <ChatViewSkeleton />;
  // No visible character has this slug: the site's 404 (the server answers 404 too).
  if (bot.isError || !bot.data) return <ErrorView status={404} />;
  return (
    <GuestChatView
      bot={bot.data}
      gallery={bot.data.gallery}
      onBack={back}
      onLoginRequired={() => modal.requireAuth(`/${slug}`, { from: 'chat' })}
    />
  );
}

/** The chat could not be opened: why, and a way on. */
function ChatUnavailable({ text, children }: { text: string; children: React.ReactNode }) {
  return (
    <div className="mx-auto flex min-h-dvh max-w-md flex-col items-center justify-center gap-4 px-4 text-center">
      <p className="text-lg" role="alert">
        {text}
      </p>
      <div className="flex flex-wrap justify-center gap-2">{children}</div>
    </div>
  );
}

const secondaryButton = 'rounded-full border border-white/15 px-5 py-2 text-sm';
const primaryButton = 'rounded-full bg-primary px-5 py-2 text-sm font-semibold text-on-primary';

/** `/{slug}` alone: the latest chat with the character (or a new one), then its address by id. */
function LatestChat({ slug, viewer }: { slug: string; viewer: string }) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const location = useLocation();
  const back = useBack('/chat');
  const chat = useLatestChat(slug, viewer);
  const failed = chat.isError && !(chat.error instanceof ApiRequestError && chat.error.status === 404);

  useEffect(() => {
    if (failed) showAlert(t('errors.chat_start_failed'), { type: 'error' });
  }, [failed, t]);

  useEffect(() => {
    if (!chat.data) return;
    // One address per chat: the page moves to it (the menu's `source` is not kept).
    const params = new URLSearchParams(location.search);
    params.delete('source');
    params.delete('chat');
    const rest = params.toString();
    navigate(`${chatPath(chat.data)}${rest ? `&${rest}` : ''}`, { replace: true });
  }, [chat.data, location.search, navigate]);

  if (chat.isError) {
    if (!failed) return <ErrorView status={404} />;
    return (
      <ChatUnavailable text={t('errors.chat_start_failed')}>
        <button type="button" onClick={back} className={secondaryButton}>
          {t('chat.back')}
        </button>
        <button type="button" onClick={() => void chat.refetch()} className={primaryButton}>
          {t('chat.try_again')}
        </button>
      </ChatUnavailable>
    );
  }
  return <ChatViewSkeleton />;
}

/** `/{slug}?chat=<id>`: that chat. */
function ChatById({ slug, chatId, viewer }: { slug: string; chatId: string; viewer: string }) {
  const { t } = useTranslation();
  const modal = useModal();
  const navigate = useNavigate();
  const back = useBack('/chat');
  const chat = useChat(chatId, viewer);
  const detail = useBot(slug);
  const gone = chat.error instanceof ApiRequestError && chat.error.status === 404;
  // Its author edits the character from its page (never anyone else, nor an official one).
  const [editing, setEditing] = useState(false);
  // "She can write to me first" (the chat's menu; docs/companion.md).
  const [writeFirst, setWriteFirst] = useState(false);
  const companionMounted = useMountedOnce(writeFirst);
  const own = isOwnCharacter(detail.data, viewer) ? detail.data : null;
  const renderMessageExtras = useMessageExtras(viewer, chat.data?.bot ?? { slug, name: '' });

  // A link whose character part is out of date still opens the chat, at its own address.
  useEffect(() => {
    if (chat.data && chat.data.bot.slug !== slug) navigate(chatPath(chat.data), { replace: true });
  }, [chat.data, slug, navigate]);

  if (chat.isPending) return <ChatViewSkeleton />;
  if (chat.isError) {
    return (
      <ChatUnavailable text={gone ? t('chat.errors.not_found') : t('chat.load_failed')}>
        <button type="button" onClick={back} className={secondaryButton}>
          {t('chat.back')}
        </button>
        {gone ? (
          <button type="button" onClick={() => navigate(`/${slug}`, { replace: true })} className={primaryButton}>
            {t('chat.open_latest')}
          </button>
        ) : (
          <button type="button" onClick={() => void chat.refetch()} className={primaryButton}>
            {t('chat.try_again')}
          </button>
        )}
      </ChatUnavailable>
    );
  }
  return (
    <>
      <OwnCharacterReview bot={detail.data} viewer={viewer} />
      <ChatView
        key={chat.data.id}
        chat={chat.data}
        gallery={detail.data?.gallery}
        viewer={viewer}
        onBack={back}
        onRequirePremium={() => modal.open('premium', { from: 'model' })}
        onCreatePersona={() => modal.open('create')}
        renderPicture={renderPicture}
        renderMessageExtras={renderMessageExtras}
        onOpenChat={(next, how) => navigate(chatPath(next), { replace: how?.replace ?? false })}
        onDeleted={() => navigate('/chat', { replace: true })}
        onEditCharacter={own ? () => setEditing(true) : undefined}
        memoriesHref={memoriesPath(chat.data.bot.slug)}
        onWriteFirst={() => setWriteFirst(true)}
      />
      {companionMounted && (
        <CompanionDialog
          chatId={chat.data.id}
          characterName={chat.data.bot.name}
          open={writeFirst}
          onClose={() => setWriteFirst(false)}
        />
      )}
      {own && editing && <EditCharacterDialog bot={own} onClose={() => setEditing(false)} />}
    </>
  );
}

/** From 1024 px the chat uses the width: the user's chats beside the conversation (issue 30). */
export const DESKTOP_CHAT_QUERY = '(min-width: 1024px)';

function ChatsBeside({ viewer, current }: { viewer: string; current: string | null }) {
  const { t } = useTranslation();
  const chats = useChats(viewer, { q: '' });
  // A chat just started (`/{slug}` alone starts one) is not in a list read before it: read again.
  const missing = Boolean(current && chats.data && !chats.data.some((chat) => chat.id === current));
  const { refetch } = chats;
  useEffect(() => {
    if (missing) void refetch();
  }, [missing, refetch]);
  return (
    <aside
      className="flex h-dvh w-80 shrink-0 flex-col border-r border-white/10 bg-surface/40 xl:w-96"
      aria-label={t('pages.chats_title')}
      data-testid="chats-beside"
    >
      <h2 className="px-5 pt-5 pb-3 text-lg font-semibold">{t('pages.chats_title')}</h2>
      <div className="min-h-0 flex-1 overflow-y-auto px-3 pb-4">
        {chats.isPending ? (
          <ChatListSkeleton />
        ) : chats.isError ? null : (
          <ChatList chats={chats.data} viewer={viewer} current={current ?? undefined} />
        )}
      </div>
    </aside>
  );
}

function MemberChat({ slug, viewer }: { slug: string; viewer: string }) {
  const [params] = useSearchParams();
  const chatId = params.get('chat');
  const wide = useMediaQuery(DESKTOP_CHAT_QUERY);
  const conversation = !chatId ? (
    <LatestChat slug={slug} viewer={viewer} />
  ) : (
    <ChatById key={chatId} slug={slug} chatId={chatId} viewer={viewer} />
  );
  if (!wide) return conversation;
  return (
    <div className="flex h-dvh">
      <ChatsBeside viewer={viewer} current={chatId} />
      <div className="min-w-0 flex-1">{conversation}</div>
    </div>
  );
}

/**
 * `/{slug}?chat=<id>` (one address per chat, API.md): that chat of a member. `/{slug}` alone
 * (spec §2; the menu link adds `?source=menu`) opens the member's latest chat with the
 * character, or starts one, and moves to its address; a guest sees the character and the greeting and
 * is asked to log in on sending.
 */
export function Component() {
  const { slug = '' } = useParams();
  const { isAuthorized } = useSession();
  const { profile } = useProfile();
  useNamedPageTitle(useBot(slug).data?.name);
  if (!isAuthorized) return <GuestChat slug={slug} />;
  if (!profile) return <ChatViewSkeleton />;
  return <MemberChat slug={slug} viewer={profile.id} />;
}
