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
import { useLatestChat } from '../../features/chat/api/get-or-create-chat';
import { ChatView, ChatViewSkeleton, GuestChatView } from '../../features/chat/components/chat-view';
import { ChatPicture } from '../../features/media/components/chat-picture';
import { VoiceButton } from '../../features/voice';
import { ApiRequestError } from '../../lib/api-client';
import { useModal } from '../../lib/modals';
import { ErrorView } from './error-page';
import { useNamedPageTitle } from '../route-meta';

/** Back to where the user came from, else to the chats list (members) or Explore (guests). */
function useBack(fallback: string) {
  const navigate = useNavigate();
  return useCallback(() => {
    const index = (window.history.state as { idx?: number } | null)?.idx ?? 0;
    if (index > 0) navigate(-1);
    else navigate(fallback);
  }, [navigate, fallback]);
}

/** A picture in the chat; an unblurred one becomes a clear picture in the conversation. */
const renderPicture = (message: Message, update: (changes: Partial<Message>) => void) => (
  <ChatPicture message={message} onUnblurred={(_id, imgUrl) => update({ kind: 2, img_url: imgUrl })} />
);

/** The voice button under a character's finished text reply (premium; others get the premium modal). */
const renderMessageExtras = (message: Message) =>
  message.role === 'bot' &&
  message.kind === 1 &&
  message.text &&
  (message.state === 'done' || message.state === 'stopped') ? (
    <VoiceButton messageId={message.id} />
  ) : null;

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
  const own = isOwnCharacter(detail.data, viewer) ? detail.data : null;

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
        onOpenChat={(next) => navigate(chatPath(next))}
        onDeleted={() => navigate('/chat', { replace: true })}
        onEditCharacter={own ? () => setEditing(true) : undefined}
      />
      {own && editing && <EditCharacterDialog bot={own} onClose={() => setEditing(false)} />}
    </>
  );
}

function MemberChat({ slug, viewer }: { slug: string; viewer: string }) {
  const [params] = useSearchParams();
  const chatId = params.get('chat');
  if (!chatId) return <LatestChat slug={slug} viewer={viewer} />;
  return <ChatById key={chatId} slug={slug} chatId={chatId} viewer={viewer} />;
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
