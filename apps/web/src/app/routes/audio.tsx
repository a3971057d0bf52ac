import { useEffect, useRef } from 'react';
import { useTranslation } from '../../lib/i18n';
import { Link, useLocation, useNavigate, useSearchParams } from 'react-router';
import { useQueryClient } from '@tanstack/react-query';
import { ArrowLeft } from 'lucide-react';
import { Icon } from '../../components/ui/icon';
import { Page, Skeleton } from '../../components/ui/page';
import { ApiRequestError } from '../../lib/api-client';
import { chatKeys } from '../../lib/query-keys';
import { currentReturnPath } from '../../lib/return-path';
import { useSession } from '../../lib/session';
import { useProfile } from '../../lib/profile';
import { useBot } from '../../features/characters/api/get-bot';
import { useChat } from '../../features/chat/api/get-chat';
import { useChats } from '../../features/chat/api/get-chats';
import {
  CallButton,
  CallPicker,
  CallProblem,
  CallView,
  unavailableFailure,
  type CallFailure,
} from '../../features/calls';
import { useClientConfig } from '../../lib/client-config';
import { useModal } from '../../lib/modals';

/** `/api/config`'s `calls`: whether a call can start now (speech recognition unable to run → why not). */
function useCallsPreflight(): { ready: boolean; failure: CallFailure | null } {
  const config = useClientConfig();
  const calls = config.data?.calls;
  return { ready: !config.isPending, failure: calls?.available === false ? unavailableFailure(calls.reason) : null };
}

/** The browser has seen a tap on this page, so a call's audio may start without another one. */
const mayStartAudio = () =>
  (navigator as Navigator & { userActivation?: { hasBeenActive: boolean } }).userActivation?.hasBeenActive ?? true;

/** The chat a call happened in: its messages (the transcript) and the lists are stale. */
function useCallEnded(viewer: string) {
  const client = useQueryClient();
  return (chatId: string | null) => {
    if (chatId) {
      void client.invalidateQueries({ queryKey: chatKeys.history(chatId) });
      void client.invalidateQueries({ queryKey: chatKeys.detail(viewer, chatId) });
    }
    void client.invalidateQueries({ queryKey: chatKeys.allLists });
  };
}

/** The call itself, once the character is known. */
function Call({
  target,
  name,
  avatarUrl,
  slug,
  viewer,
}: {
  target: { chat_id: string } | { slug: string };
  name: string;
  avatarUrl: string | null;
  slug: string;
  viewer: string;
}) {
  const navigate = useNavigate();
  const location = useLocation();
  const modal = useModal();
  const preflight = useCallsPreflight();
  const ended = useCallEnded(viewer);
  const toChat = (chatId: string | null) =>
    navigate(chatId ? `/${slug}?chat=${encodeURIComponent(chatId)}` : `/${slug}`, { replace: true });
  const autoStart = useRef(mayStartAudio()).current;
  if (!preflight.ready) return <CallSkeleton />;
  return (
    <CallView
      target={target}
      character={{ name, avatarUrl }}
      autoStart={autoStart}
      preflight={preflight.failure}
      onRequireAuth={() => modal.requireAuth(currentReturnPath(location))}
      onRequirePremium={() => modal.open('premium', { from: 'call' })}
      onEnded={(_reason, chatId) => ended(chatId)}
      onHungUp={toChat}
      onBack={toChat}
    />
  );
}

function CallSkeleton() {
  return (
    <div className="flex h-dvh flex-col items-center justify-center gap-4" data-testid="call-loading">
      <Skeleton className="h-40 w-40 rounded-full sm:h-56 sm:w-56" />
      <Skeleton className="h-6 w-32" />
    </div>
  );
}

/** The page has no bars (immersive): back to where the user came from, else the chats. */
function BackButton() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  return (
    <button
      type="button"
      onClick={() => ((window.history.state as { idx?: number } | null)?.idx ? navigate(-1) : navigate('/chat'))}
      className="-ml-2 flex items-center gap-1.5 rounded-full px-2 py-1.5 text-sm text-muted hover:bg-white/10 hover:text-fg"
      data-testid="call-page-back"
    >
      <Icon icon={ArrowLeft} size="md" />
      {t('calls.back')}
    </button>
  );
}

/** Something stands between the user and the call page itself (no such chat, not signed in). */
function Blocked({ failure, name = '', actions }: { failure: CallFailure; name?: string; actions: React.ReactNode }) {
  const { t } = useTranslation();
  return (
    <Page title={t('pages.audio_title')} actions={<BackButton />}>
      <CallProblem failure={failure} name={name} actions={actions} />
    </Page>
  );
}

function CallByChat({ chatId, viewer }: { chatId: string; viewer: string }) {
  const { t } = useTranslation();
  const chat = useChat(chatId, viewer);
  if (chat.isPending) return <CallSkeleton />;
  if (chat.isError) {
    const gone = chat.error instanceof ApiRequestError && (chat.error.status === 404 || chat.error.status === 422);
    return (
      <Blocked
        failure={gone ? 'not_found' : 'unreachable'}
        actions={
          gone ? (
            <Link to="/audio" className="rounded-full bg-primary px-5 py-2.5 text-sm font-semibold text-on-primary">
              {t('calls.pick_someone')}
            </Link>
          ) : (
            <CallButton onClick={() => void chat.refetch()}>{t('calls.try_again')}</CallButton>
          )
        }
      />
    );
  }
  const bot = chat.data.bot;
  return (
    <Call
      target={{ chat_id: chat.data.id }}
      name={bot.name}
      avatarUrl={bot.avatar_url}
      slug={bot.slug}
      viewer={viewer}
    />
  );
}

function CallBySlug({ slug, viewer }: { slug: string; viewer: string }) {
  const { t } = useTranslation();
  const bot = useBot(slug);
  if (bot.isPending) return <CallSkeleton />;
  if (bot.isError || !bot.data) {
    return (
      <Blocked
        failure="not_found"
        actions={
          <Link to="/audio" className="rounded-full bg-primary px-5 py-2.5 text-sm font-semibold text-on-primary">
            {t('calls.pick_someone')}
          </Link>
        }
      />
    );
  }
  return <Call target={{ slug }} name={bot.data.name} avatarUrl={bot.data.avatar_url} slug={slug} viewer={viewer} />;
}

/** `/audio` alone: the user's chats, each with a call button. */
function CallList({ viewer }: { viewer: string }) {
  const { t } = useTranslation();
  const chats = useChats(viewer);
  return (
    <Page title={t('calls.pick_title')} subtitle={t('calls.pick_subtitle')} actions={<BackButton />}>
      <div className="max-w-2xl">
        {chats.isPending ? (
          <div className="flex flex-col gap-3">
            {[0, 1, 2].map((i) => (
              <Skeleton key={i} className="h-16" />
            ))}
          </div>
        ) : chats.isError ? (
          <div className="flex flex-col items-center gap-3 py-12 text-center">
            <p role="alert">{t('calls.pick_load_failed')}</p>
            <CallButton onClick={() => void chats.refetch()}>{t('calls.try_again')}</CallButton>
          </div>
        ) : (
          <CallPicker
            items={chats.data.map((chat) => ({
              chatId: chat.id,
              name: chat.bot.name,
              avatarUrl: chat.bot.avatar_url,
              title: chat.title,
            }))}
          />
        )}
      </div>
    </Page>
  );
}

/** A guest: sign up (or log in) first, then back here. */
function GuestCall() {
  const { t } = useTranslation();
  const modal = useModal();
  const location = useLocation();
  const asked = useRef(false);
  useEffect(() => {
    if (asked.current) return;
    asked.current = true;
    modal.requireAuth(currentReturnPath(location));
    // Once, when the page opens: closing the modal leaves the explanation and its button.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, []);
  return (
    <Blocked
      failure="sign_in"
      actions={
        <CallButton onClick={() => modal.requireAuth(currentReturnPath(location))}>{t('calls.sign_in')}</CallButton>
      }
    />
  );
}

/**
 * `/audio` (page key audio, no bottom bar): a call with a character — `?chat=<id>` continues
 * that chat, `?slug=…` the latest chat with the character; without either, the user's chats
 * to call. Guests are asked to sign up; the call's feature (features/calls) does the rest.
 */
export function Component() {
  const [params] = useSearchParams();
  const { isAuthorized } = useSession();
  const { profile } = useProfile();
  const chatId = params.get('chat');
  const slug = params.get('slug');
  if (!isAuthorized) return <GuestCall />;
  const viewer = profile?.id ?? '';
  if (!profile) return <CallSkeleton />;
  if (chatId) return <CallByChat key={chatId} chatId={chatId} viewer={viewer} />;
  if (slug) return <CallBySlug key={slug} slug={slug} viewer={viewer} />;
  return <CallList viewer={viewer} />;
}
