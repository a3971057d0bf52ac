import { useCallback, useEffect } from 'react';
import { useNavigate, useParams } from 'react-router';
import { useTranslation } from 'react-i18next';
import type { Message } from '@reverie/shared';
import { showAlert } from '../../components/ui/alerts';
import { useSession } from '../../lib/session';
import { useBot } from '../../features/characters/api/get-bot';
import { CharacterNotFound } from '../../features/characters/components/character-profile';
import { useChatForCharacter } from '../../features/chat/api/get-or-create-chat';
import { ChatView, ChatViewSkeleton, GuestChatView } from '../../features/chat/components/chat-view';
import { ChatPicture } from '../../features/media/components/chat-picture';
import { VoiceButton } from '../../features/voice';
import { ApiRequestError } from '../../lib/api-client';
import { useModal } from '../modals';
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
  if (bot.isError || !bot.data) return <CharacterNotFound />;
  return (
    <GuestChatView
      bot={bot.data}
      gallery={bot.data.gallery}
      onBack={back}
      onLoginRequired={() => modal.open('login', { next: `/${slug}` })}
    />
  );
}

function MemberChat({ slug, viewer }: { slug: string; viewer: string }) {
  const { t } = useTranslation();
  const modal = useModal();
  const back = useBack('/chat');
  const chat = useChatForCharacter(slug, viewer);
  const detail = useBot(slug);
  const failed = chat.isError && !(chat.error instanceof ApiRequestError && chat.error.status === 404);

  useEffect(() => {
    if (failed) showAlert(t('errors.chat_start_failed'), { type: 'error' });
  }, [failed, t]);

  if (chat.isPending) return <ChatViewSkeleton />;
  if (chat.isError) {
    if (!failed) return <CharacterNotFound />;
    return (
      <div className="mx-auto flex min-h-dvh max-w-md flex-col items-center justify-center gap-4 px-4 text-center">
        <p className="text-lg" role="alert">
          {t('errors.chat_start_failed')}
        </p>
        <div className="flex gap-2">
          <button type="button" onClick={back} className="rounded-full border border-white/15 px-5 py-2 text-sm">
            {t('chat.back')}
          </button>
          <button
            type="button"
            onClick={() => void chat.refetch()}
            className="rounded-full bg-primary px-5 py-2 text-sm font-semibold text-on-primary"
          >
            {t('chat.try_again')}
          </button>
        </div>
      </div>
    );
  }
  return (
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
    />
  );
}

/**
 * `/{slug}` (spec §2; the menu link adds `?source=menu`): a member's conversation with the
 * character, opened or started on arrival; a guest sees the character and the greeting and
 * is asked to log in on sending.
 */
export function Component() {
  const { slug = '' } = useParams();
  const { profile, isAuthorized } = useSession();
  useNamedPageTitle(useBot(slug).data?.name);
  if (!isAuthorized) return <GuestChat slug={slug} />;
  if (!profile) return <ChatViewSkeleton />;
  return <MemberChat slug={slug} viewer={profile.id} />;
}
