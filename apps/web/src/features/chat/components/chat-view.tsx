import '../../../lib/error-texts';
import '../texts';
import { useCallback, useEffect, useMemo, useState, type ReactNode } from 'react';
import { Link, useNavigate } from 'react-router';
import { useMountedOnce } from '../../../lib/use-mounted-once';
import { useTranslation } from '../../../lib/i18n';
import { GitBranch, Search, Square, TriangleAlert, X } from 'lucide-react';
import { MessageKind, type Bot, type Chat, type Message } from '@reverie/shared';
import { showAlert } from '../../../components/ui/alerts';
import { Icon } from '../../../components/ui/icon';
import { IconButton, IconTextButton } from '../../../components/ui/icon-button';
import { LoadFailed } from '../../../components/ui/load-failed';
import { Modal } from '../../../components/ui/modal';
import { Skeleton } from '../../../components/ui/page';
import { BlurredPictureHint } from '../../../components/ui/blurred-picture-hint';
import { RoleplayText } from '../../../components/ui/roleplay-text';
import { wasAuthorizedOnce } from '../../../lib/session';
import { countSentMessage } from '../../../lib/install-offer';
import { InstallOffer } from '../../../components/pwa/install-offer';
import { useMarkRead } from '../api/mark-read';
import { useCreateChat } from '../api/create-chat';
import { useUpdateChat } from '../api/update-chat';
import { downloadCard } from '../../../lib/download-card';
import { useConversation, type ConversationError } from '../hooks/use-conversation';
import { characterDraftKey, chatDraftKey } from '../drafts';
import { keepPendingMessage, takePendingMessage } from '../pending-message';
import { ChatHeader, CHAT_MENU_ICONS, type ChatMenuItem } from './chat-header';
import { Composer } from './composer';
import { ChatHistoryDialog, DeleteChatDialog, NewChatDialog, RenameChatDialog } from './chat-dialogs';
import { MemoriesDialog } from './memories-dialog';
import { AuthorNoteDialog } from './author-note-dialog';
import { ChatLorebooksDialog, PromptTraceDialog } from './lore-dialogs';
import { JumpDialog } from './jump-dialog';
import { exportChat } from '../api/export-chat';
import { ImportChatDialog } from './import-chat-dialog';
import { failureActionClass } from './message-bubble';
import { MessageList } from './message-list';
import { ModelDialog } from './model-dialog';
import { PersonaDialog } from './persona-dialog';
import { ReportDialog } from './report-dialog';
import { ChatSearchDialog } from './search-dialog';
import { BranchesDialog, DeleteMessageDialog, EditMessageDialog } from './story-dialogs';
import { useStory } from '../hooks/use-story';
import { GroupDialogs, SceneIntro, useGroupChat } from './group-chat';
import { SceneBar, SceneTypingLine } from './scene-bar';

/** What the chat shows of its character. */
export type ChatCharacter = Pick<Bot, 'slug' | 'name' | 'age' | 'avatar_url' | 'description' | 'greeting'>;

/** The character's card at the top of a conversation. */
/** The character's gallery under the intro: thumbnails that open full size. */
function GalleryStrip({ name, pictures }: { name: string; pictures: string[] }) {
  const { t } = useTranslation();
  const [open, setOpen] = useState<number | null>(null);
  if (pictures.length === 0) return null;
  return (
    <>
      <ul
        className="flex max-w-full gap-2 overflow-x-auto px-2 py-1"
        aria-label={t('chat.gallery_label', { name })}
        data-testid="character-gallery"
      >
        {pictures.map((url, index) => (
          <li key={url} className="relative shrink-0 rounded-xl">
            <button
              type="button"
              onClick={() => setOpen(index)}
              aria-label={t('chat.gallery_open', { index: index + 1, name })}
              className="block h-24 w-[4.5rem] overflow-hidden rounded-xl border border-white/10 focus-visible:outline-2 focus-visible:outline-primary"
            >
              <img src={url} alt="" loading="lazy" className="h-full w-full object-cover" />
            </button>
            <BlurredPictureHint url={url} look="cover" />
          </li>
        ))}
      </ul>
      <Modal open={open !== null} onClose={() => setOpen(null)} title={t('chat.gallery_label', { name })} size="lg">
        {open !== null && (
          <div className="relative">
            <img
              src={pictures[open]}
              alt={t('chat.gallery_open', { index: open + 1, name })}
              className="mx-auto max-h-[80dvh] w-auto rounded-xl object-contain"
              data-testid="gallery-full"
            />
            <BlurredPictureHint url={pictures[open]} />
          </div>
        )}
      </Modal>
    </>
  );
}

function CharacterIntro({
  bot,
  gallery = [],
  onEdit,
  memoriesHref,
}: {
  bot: ChatCharacter;
  gallery?: string[];
  /** The author's "Edit character" (none for anyone else). */
  onEdit?: () => void;
  /** The character's memory page (a member's). */
  memoriesHref?: string;
}) {
  const { t } = useTranslation();
  return (
    <div className="flex flex-col items-center gap-2 pt-4 pb-2 text-center" data-testid="character-intro">
      {bot.avatar_url && (
        <div className="relative">
          <img
            src={bot.avatar_url}
            alt={t('chat.avatar_alt', { name: bot.name })}
            className="h-24 w-24 rounded-full border border-white/10 object-cover shadow-xl"
          />
          <BlurredPictureHint url={bot.avatar_url} look="badge" />
        </div>
      )}
      <p className="text-lg font-semibold">
        {bot.name}
        <span className="ml-2 text-sm font-normal text-muted">{t('chat.age', { count: bot.age })}</span>
      </p>
      {bot.description && (
        <p className="line-clamp-3 max-w-md text-sm text-muted">
          <RoleplayText text={bot.description} />
        </p>
      )}
      <GalleryStrip name={bot.name} pictures={gallery} />
      {onEdit && (
        <button
          type="button"
          onClick={onEdit}
          data-testid="edit-character"
          className="mt-1 flex items-center gap-1.5 rounded-full border border-white/15 px-4 py-1.5 text-sm hover:border-primary"
        >
          <Icon icon={CHAT_MENU_ICONS.editCharacter} size="sm" />
          {t('chat.edit_character')}
        </button>
      )}
      {memoriesHref && (
        <Link
          to={memoriesHref}
          data-testid="intro-memories-link"
          className="mt-1 flex items-center gap-1.5 rounded-full border border-white/15 px-4 py-1.5 text-sm hover:border-primary"
        >
          <Icon icon={CHAT_MENU_ICONS.remembers} size="sm" />
          {t('chat.remembers', { name: bot.name })}
        </Link>
      )}
    </div>
  );
}

function errorText(t: (key: string, options?: Record<string, unknown>) => string, error: ConversationError): string {
  switch (error.code) {
    case 'rate_limited':
      return error.retryAfter
        ? t('chat.errors.rate_limited_wait', { seconds: error.retryAfter })
        : t('chat.errors.rate_limited');
    case 'generation_in_progress':
    case 'not_found':
    case 'network':
      return t(`chat.errors.${error.code}`);
    default:
      return error.detail ?? t('chat.errors.default');
  }
}

/**
 * A problem above the composer. `onStop`: a reply this page does not show is still being written
 * (a send refused with 409 — an older reply regenerated before a reload, another tab's): the
 * banner offers to stop it, as its text says, since the composer has no stop button for it.
 */
function ErrorBanner({
  error,
  onDismiss,
  onStop,
}: {
  error: ConversationError;
  onDismiss: () => void;
  onStop?: () => void;
}) {
  const { t } = useTranslation();
  return (
    <div className="mx-auto w-full max-w-3xl px-3 sm:px-4">
      <div
        role="alert"
        data-testid="chat-error"
        data-code={error.code}
        className="mb-2 flex items-start gap-2 rounded-xl border border-red-400/40 bg-red-950/80 px-3 py-2 text-sm text-red-50"
      >
        <Icon icon={TriangleAlert} size="md" className="mt-0.5 shrink-0" />
        <p className="flex-1">{errorText(t, error)}</p>
        {onStop && (
          <IconTextButton
            icon={Square}
            onClick={onStop}
            testId="chat-error-stop"
            className={`-my-0.5 flex shrink-0 items-center gap-1 ${failureActionClass}`}
          >
            {t('chat.stop')}
          </IconTextButton>
        )}
        <button
          type="button"
          onClick={onDismiss}
          aria-label={t('alerts.close')}
          className="-m-1 rounded p-1 opacity-70 hover:opacity-100"
        >
          <Icon icon={X} size="sm" />
        </button>
      </div>
    </div>
  );
}

/** The frame every chat screen shares: full height, header, the list, the composer. */
/** The chat's full-height frame with its header (back, the character, call, the menu). */
function ChatFrame({
  bot,
  title,
  onBack,
  menu,
  children,
  testId,
  chatId,
  actions,
  group,
}: {
  bot: ChatCharacter;
  /** A group chat: its name, faces, and the call that asks whom to call. */
  group?: { name: string; faces: { name: string; avatar_url: string | null }[]; onCall: () => void };
  /** More header buttons (search, branches). */
  actions?: ReactNode;
  /** The chat the call continues (a member's); the character's latest chat without one. */
  chatId?: string;
  title?: string | null;
  onBack: () => void;
  menu: ChatMenuItem[];
  children: ReactNode;
  testId: string;
}) {
  return (
    <div className="flex h-dvh flex-col bg-bg" data-testid={testId}>
      <ChatHeader
        name={group?.name ?? bot.name}
        faces={group?.faces}
        onCall={group?.onCall}
        title={title}
        avatarUrl={bot.avatar_url}
        onBack={onBack}
        callHref={chatId ? `/audio?chat=${encodeURIComponent(chatId)}` : `/audio?slug=${encodeURIComponent(bot.slug)}`}
        menu={menu}
        actions={actions}
      />
      {children}
    </div>
  );
}

export interface ChatViewProps {
  chat: Chat;
  /** The character's gallery pictures (URLs), shown under the intro. */
  gallery?: string[];
  /** The signed-in user's id: keeps cached models and personas per user. */
  viewer: string;
  onBack: () => void;
  /** A premium model was picked by a free user: the page opens the premium offer. */
  onRequirePremium: () => void;
  /** Opens the create form for a new persona; no button when absent. */
  onCreatePersona?: () => void;
  /** A picture message (kind 2 clear, 3 blurred); pictures are not shown without it. */
  renderPicture?: (message: Message, update: (changes: Partial<Message>) => void) => ReactNode;
  /** More actions under a bot reply (e.g. play it as voice). */
  renderMessageExtras?: (message: Message) => ReactNode;
  /**
   * Opens another chat (a new one, after "New chat"): the page moves to its address. `replace`:
   * the other chat takes this one's place in the browser's history (another branch of the same
   * story, so that "back" still leads to where the user came from, not through every branch).
   */
  onOpenChat: (chat: Chat, how?: { replace: boolean }) => void;
  /** This chat was deleted: the page leaves it. */
  onDeleted: () => void;
  /** The viewer wrote this character: "Edit character" in the menu and under the intro opens its editor. */
  onEditCharacter?: () => void;
  /**
   * The character's memory page ("What {name} remembers about you"): the menu's entry, a link
   * under the intro and in the chat summary; none without it.
   */
  memoriesHref?: string;
  /** "She can write to me first" in the menu opens the page's companion dialog (docs/companion.md). */
  onWriteFirst?: () => void;
}

/** A member's conversation with a character. */

export function ChatView({
  chat,
  gallery,
  viewer,
  onBack,
  onRequirePremium,
  onCreatePersona,
  renderPicture,
  renderMessageExtras,
  onOpenChat,
  onDeleted,
  onEditCharacter,
  memoriesHref,
  onWriteFirst,
}: ChatViewProps) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const bot = chat.bot;
  const conversation = useConversation(chat.id);
  const group = useGroupChat(chat, conversation, onDeleted);
  // A group chat is several characters': one character's memory page and card do not fit it.
  if (group.isGroup) memoriesHref = undefined;
  const createChat = useCreateChat(viewer);
  const updateChat = useUpdateChat(chat.id, viewer);
  const [dialog, setDialog] = useState<
    | 'memories'
    | 'model'
    | 'persona'
    | 'history'
    | 'new'
    | 'rename'
    | 'delete'
    | 'branches'
    | 'search'
    | 'jump'
    | 'author-note'
    | 'lorebooks'
    | 'import'
    | null
  >(null);
  const story = useStory(chat, conversation, onOpenChat);
  const [reporting, setReporting] = useState<string | null>(null);
  /** The reply whose "what went into the prompt" is open. */
  const [tracing, setTracing] = useState<string | null>(null);
  const [composerKey, setComposerKey] = useState(0);
  // The chat's dialogs (each with its queries and texts) are mounted when one first opens, not
  // with the chat: opening a chat renders only what shows. Once mounted they stay, so a
  // dialog closes as usual and gives the focus back.
  const groupDialogsMounted = useMountedOnce(group.dialog !== null);
  const dialogsMounted = useMountedOnce(
    dialog !== null || reporting !== null || tracing !== null || story.editing !== null || story.deleting !== null,
  );

  // The message a guest wrote before signing up (or logging in) is sent once the chat is open.
  const { send, busy } = conversation;
  const historyReady = !conversation.history.isPending && !conversation.history.isError;
  useEffect(() => {
    if (!historyReady || busy) return;
    const pending = takePendingMessage(bot.slug, chat.id);
    if (!pending) return;
    setComposerKey((key) => key + 1);
    send(pending.text, pending.clientId);
  }, [historyReady, busy, bot.slug, chat.id, send]);

  const close = () => setDialog(null);
  // Read once the history is shown (not while it loads), and again at each newer message.
  const newestId = historyReady ? (conversation.messages.at(-1)?.id ?? null) : null;
  useMarkRead(chat.id, viewer, busy, newestId);
  const sendCounted = useCallback(
    (text: string) => {
      const sent = send(text);
      if (sent) countSentMessage();
      return sent;
    },
    [send],
  );

  // "New chat" asks first; the chat left behind stays in the menu's history and the list.
  const startNewChat = async () => {
    try {
      const created = await createChat.mutateAsync(bot.id);
      close();
      onOpenChat(created);
    } catch {
      showAlert(t('errors.chat_start_failed'), { type: 'error' });
    }
  };

  // "Don't remember this chat": nothing of it becomes a long-term memory until turned back on.
  const toggleRemember = () => {
    const remember = !chat.remember;
    updateChat.mutate(
      { remember },
      {
        onSuccess: () =>
          showAlert(t(remember ? 'chat.remembered_done' : 'chat.not_remembered_done', { name: bot.name })),
        onError: () => showAlert(t('chat.save_failed'), { type: 'error' }),
      },
    );
  };

  const menu: ChatMenuItem[] = [
    ...(memoriesHref
      ? [
          {
            id: 'remembers',
            label: t('chat.remembers', { name: bot.name }),
            icon: CHAT_MENU_ICONS.remembers,
            onSelect: () => navigate(memoriesHref),
          },
        ]
      : []),
    ...(memoriesHref
      ? [
          {
            id: 'remember',
            label: chat.remember ? t('chat.forget_chat') : t('chat.remember_chat'),
            icon: CHAT_MENU_ICONS.remember,
            onSelect: () => toggleRemember(),
          },
        ]
      : []),
    {
      id: 'memories',
      label: t('chat.memories'),
      icon: CHAT_MENU_ICONS.memories,
      onSelect: () => setDialog('memories'),
    },
    {
      id: 'author-note',
      label: t('chat.author_note'),
      icon: CHAT_MENU_ICONS.authorNote,
      onSelect: () => setDialog('author-note'),
    },
    {
      id: 'lorebooks',
      label: t('chat.lore.menu'),
      icon: CHAT_MENU_ICONS.lorebooks,
      onSelect: () => setDialog('lorebooks'),
    },
    { id: 'model', label: t('chat.model'), icon: CHAT_MENU_ICONS.model, onSelect: () => setDialog('model') },
    { id: 'persona', label: t('chat.persona'), icon: CHAT_MENU_ICONS.persona, onSelect: () => setDialog('persona') },
    { id: 'history', label: t('chat.history'), icon: CHAT_MENU_ICONS.history, onSelect: () => setDialog('history') },
    { id: 'jump', label: t('chat.jump'), icon: CHAT_MENU_ICONS.jump, onSelect: () => setDialog('jump') },
    ...(onWriteFirst
      ? [
          {
            id: 'write-first',
            label: t('chat.companion_menu'),
            icon: CHAT_MENU_ICONS.writeFirst,
            onSelect: onWriteFirst,
          },
        ]
      : []),
    { id: 'new', label: t('chat.new_chat'), icon: CHAT_MENU_ICONS.newChat, onSelect: () => setDialog('new') },
    { id: 'rename', label: t('chat.rename'), icon: CHAT_MENU_ICONS.rename, onSelect: () => setDialog('rename') },
    {
      id: 'branches',
      label: t('chat.story.branches'),
      icon: CHAT_MENU_ICONS.branches,
      onSelect: () => setDialog('branches'),
    },
    {
      id: 'suggestions',
      label: story.suggestionsOn ? t('chat.story.suggestions_turn_off') : t('chat.story.suggestions_turn_on'),
      icon: CHAT_MENU_ICONS.suggestions,
      onSelect: story.toggleSuggestions,
    },
    {
      id: 'card',
      label: t('chat.export_card'),
      icon: CHAT_MENU_ICONS.card,
      onSelect: () =>
        void downloadCard(bot.slug).catch(() => showAlert(t('errors.something_went_wrong'), { type: 'error' })),
    },
    ...(['jsonl', 'txt'] as const).map((format) => ({
      id: `export-${format}`,
      label: t(`chat.export_${format}`),
      icon: CHAT_MENU_ICONS.card,
      onSelect: () =>
        void exportChat(chat.id, format).catch(() => showAlert(t('errors.something_went_wrong'), { type: 'error' })),
    })),
    {
      id: 'import',
      label: t('chat.import.menu'),
      icon: CHAT_MENU_ICONS.importChat,
      onSelect: () => setDialog('import'),
    },
    { id: 'delete', label: t('chat.delete'), icon: CHAT_MENU_ICONS.delete, onSelect: () => setDialog('delete') },
  ];
  // A group chat: the scene's entries first; its owner keeps the chat's own (a member only the scene's).
  const GROUP_KEEPS = ['memories', 'author-note', 'model', 'rename', 'export-jsonl', 'export-txt', 'delete'];
  if (group.isGroup) {
    const kept = group.owner ? menu.filter((item) => GROUP_KEEPS.includes(item.id)) : [];
    menu.splice(0, menu.length, ...group.menu, ...kept);
  } else {
    menu.splice(menu.findIndex((item) => item.id === 'persona') + 1, 0, ...group.menu);
  }
  if (onEditCharacter && !group.isGroup)
    menu.unshift({
      id: 'edit-character',
      label: t('chat.edit_character'),
      icon: CHAT_MENU_ICONS.editCharacter,
      onSelect: onEditCharacter,
    });

  const { patch } = conversation;
  const pictureRenderer = useMemo(
    () =>
      renderPicture ? (message: Message) => renderPicture(message, (changes) => patch(message.id, changes)) : undefined,
    [renderPicture, patch],
  );

  return (
    <ChatFrame
      testId="chat-view"
      bot={bot}
      group={
        group.isGroup ? { name: group.name, faces: group.faces, onCall: () => group.setDialog('call') } : undefined
      }
      chatId={chat.id}
      title={chat.title}
      onBack={onBack}
      menu={menu}
      actions={
        <>
          <IconButton
            look="bar"
            icon={Search}
            label={t('chat.story.search')}
            testId="chat-search"
            onClick={() => setDialog('search')}
          />
          {chat.root_chat_id && (
            <IconButton
              look="bar"
              icon={GitBranch}
              label={t('chat.story.branches')}
              testId="chat-branches"
              onClick={() => setDialog('branches')}
            />
          )}
        </>
      }
    >
      {group.scene && (
        <SceneBar
          scene={group.scene}
          busy={conversation.busy}
          onlineCount={group.online.length}
          onSpeak={(character) => conversation.speakNow(character.bot_id)}
          onContinue={() => void conversation.continueTurns()}
          onStop={() => void conversation.stop()}
          onCharacters={() => group.setDialog('characters')}
          onPeople={() => group.setDialog('people')}
          onSetting={() => group.setDialog('setting')}
        />
      )}
      {conversation.history.isPending ? (
        <div className="mx-auto flex w-full max-w-3xl flex-1 flex-col justify-end gap-3 px-4 py-4" aria-busy="true">
          <Skeleton className="h-12 w-2/3" />
          <Skeleton className="ml-auto h-10 w-1/2" />
          <Skeleton className="h-16 w-3/4" />
        </div>
      ) : conversation.history.isError ? (
        <LoadFailed
          text={t('chat.load_failed')}
          retryLabel={t('chat.try_again')}
          onRetry={conversation.history.retry}
          className="flex-1 justify-center px-4"
        />
      ) : (
        <MessageList
          messages={conversation.messages}
          botName={bot.name}
          botAvatar={bot.avatar_url}
          viewer={viewer}
          groupNames={group.isGroup ? group.name : undefined}
          lastBotId={conversation.lastBotId}
          busy={conversation.busy}
          waitingForReply={conversation.waitingForReply}
          warmingUpId={conversation.warmingUpId}
          hasOlder={conversation.history.hasOlder}
          isLoadingOlder={conversation.history.isLoadingOlder}
          loadOlder={conversation.history.loadOlder}
          hasNewer={conversation.history.hasNewer}
          awayCount={conversation.history.awayCount}
          isLoadingNewer={conversation.history.isLoadingNewer}
          loadNewer={conversation.history.loadNewer}
          onJumpToLatest={() => conversation.history.jumpTo({ kind: 'latest' })}
          anchorId={conversation.history.anchorId}
          anchorOffset={conversation.history.anchorOffset}
          openAt={conversation.history.anchor.kind === 'first' ? 'start' : 'end'}
          windowKey={conversation.history.windowKey}
          sentCount={conversation.sentCount}
          chatId={chat.id}
          intro={
            group.isGroup ? (
              <SceneIntro chat={chat} scene={group.scene} />
            ) : (
              <CharacterIntro bot={bot} gallery={gallery} onEdit={onEditCharacter} memoriesHref={memoriesHref} />
            )
          }
          onRegenerate={(message) => conversation.regenerate(message.id)}
          onSelectAlternative={(message, index) => void conversation.select(message, index)}
          onReport={(message) => setReporting(message.id)}
          onResend={conversation.resend}
          renderPicture={pictureRenderer}
          renderMessageExtras={renderMessageExtras}
          onMessageAction={
            group.isGroup
              ? undefined
              : (action, message) =>
                  action === 'prompt' ? setTracing(message.id) : story.onMessageAction(action, message)
          }
        />
      )}
      {group.isGroup && <SceneTypingLine typing={group.live.typing} />}
      {conversation.error && (
        <ErrorBanner
          error={conversation.error}
          onDismiss={conversation.dismissError}
          onStop={
            conversation.error.code === 'generation_in_progress' && !conversation.busy
              ? () => void conversation.stop().then((stopped) => stopped && conversation.dismissError())
              : undefined
          }
        />
      )}
      {memoriesHref && !chat.remember && (
        <p
          className="mx-auto w-full max-w-3xl px-4 pb-1 text-center text-xs text-muted"
          data-testid="chat-not-remembered"
        >
          {t('chat.not_remembered', { name: bot.name })}
        </p>
      )}
      <InstallOffer />
      <Composer
        key={`${chat.id}:${composerKey}`}
        botName={group.name}
        draftKey={chatDraftKey(chat.id)}
        draftFallbackKey={characterDraftKey(bot.slug)}
        busy={conversation.busy}
        onSend={sendCounted}
        onStop={() => void conversation.stop()}
        onWriteMyReply={group.isGroup ? undefined : story.writeMyReply}
        suggestions={group.isGroup ? undefined : story.suggestions}
        onTyping={group.isGroup ? group.live.signalTyping : undefined}
        mentions={group.isGroup ? group.faces.map((face) => face.name) : undefined}
      />
      {groupDialogsMounted && (
        <GroupDialogs chat={chat} group={group} viewer={viewer} onLeft={onDeleted} onCreatePersona={onCreatePersona} />
      )}
      {dialogsMounted && (
        <>
          <MemoriesDialog
            chatId={chat.id}
            name={bot.name}
            memoriesHref={memoriesHref}
            open={dialog === 'memories'}
            onClose={close}
          />
          <EditMessageDialog
            message={story.editing}
            canRegenerate={story.canRegenerate}
            pending={story.pending}
            onSave={(text, regenerate) => void story.saveEdit(text, regenerate)}
            onClose={story.closeEdit}
          />
          <DeleteMessageDialog
            target={story.deleting}
            pending={story.pending}
            onConfirm={() => void story.confirmDelete()}
            onClose={story.closeDelete}
          />
          <BranchesDialog
            open={dialog === 'branches'}
            current={chat}
            onOpen={(id) => {
              close();
              onOpenChat({ ...chat, id }, { replace: true });
            }}
            onClose={close}
          />
          <ChatSearchDialog
            open={dialog === 'search'}
            chatId={chat.id}
            botName={bot.name}
            onClose={close}
            onShowInChat={(hit) => conversation.history.jumpTo({ kind: 'date', at: hit.created_at, focusId: hit.id })}
          />
          <JumpDialog open={dialog === 'jump'} onClose={close} onJump={conversation.history.jumpTo} />
          <AuthorNoteDialog chatId={chat.id} open={dialog === 'author-note'} onClose={close} />
          <ChatLorebooksDialog chatId={chat.id} open={dialog === 'lorebooks'} onClose={close} />
          <PromptTraceDialog chatId={chat.id} messageId={tracing} onClose={() => setTracing(null)} />
          <ImportChatDialog
            open={dialog === 'import'}
            bot={bot}
            viewer={viewer}
            onClose={close}
            onImported={(imported) => {
              close();
              onOpenChat(imported);
            }}
          />
          <ModelDialog
            chatId={chat.id}
            modelId={chat.model_id}
            viewer={viewer}
            open={dialog === 'model'}
            onClose={close}
            onRequirePremium={onRequirePremium}
          />
          <PersonaDialog
            chatId={chat.id}
            personaId={chat.persona_id}
            viewer={viewer}
            open={dialog === 'persona'}
            onClose={close}
            onCreatePersona={onCreatePersona}
          />
          <ReportDialog chatId={chat.id} messageId={reporting} onClose={() => setReporting(null)} />
          <ChatHistoryDialog open={dialog === 'history'} current={chat} viewer={viewer} onClose={close} />
          <NewChatDialog
            open={dialog === 'new'}
            name={bot.name}
            pending={createChat.isPending}
            onConfirm={() => void startNewChat()}
            onClose={close}
          />
          <RenameChatDialog chat={dialog === 'rename' ? chat : null} viewer={viewer} onClose={close} />
          <DeleteChatDialog
            chat={dialog === 'delete' ? chat : null}
            viewer={viewer}
            onClose={close}
            onDeleted={onDeleted}
          />
        </>
      )}
    </ChatFrame>
  );
}

export interface GuestChatViewProps {
  bot: ChatCharacter;
  /** The character's gallery pictures (URLs), shown under the intro. */
  gallery?: string[];
  onBack: () => void;
  /** Sending asks the guest to sign up or log in (the page opens the modal); the text is kept. */
  onLoginRequired: () => void;
}

/**
 * A guest sees the character and the greeting; sending keeps the message (`pending-message.ts`)
 * and asks them to sign up or log in — the member chat then sends it.
 */
export function GuestChatView({ bot, gallery, onBack, onLoginRequired }: GuestChatViewProps) {
  const { t } = useTranslation();
  const messages = useMemo<Message[]>(() => {
    const base = {
      chat_id: '',
      client_id: null,
      kind: MessageKind.Text,
      img_url: null,
      has_audio: false,
      state: 'done' as const,
      created_at: '',
      reply_to: null,
      alt_index: 0,
      alt_count: 1,
      error_code: null,
      spoken: false,
      edited_at: null,
      proactive: false,
    };
    const notice: Message = {
      ...base,
      id: 'guest-notice',
      role: 'system',
      text: t('chat.ai_notice', { name: bot.name }),
      notice: 'ai_disclosure',
    };
    if (!bot.greeting) return [notice];
    return [notice, { ...base, id: 'guest-greeting', role: 'bot', text: bot.greeting, notice: null }];
  }, [bot.greeting, bot.name, t]);

  return (
    <ChatFrame testId="character-page" bot={bot} onBack={onBack} menu={[]}>
      <MessageList
        messages={messages}
        botName={bot.name}
        botAvatar={bot.avatar_url}
        lastBotId={null}
        busy={false}
        waitingForReply={false}
        hasOlder={false}
        isLoadingOlder={false}
        loadOlder={() => {}}
        intro={<CharacterIntro bot={bot} gallery={gallery} />}
      />
      <p className="mx-auto w-full max-w-3xl px-4 pb-1 text-center text-xs text-muted">
        {t(wasAuthorizedOnce() ? 'chat.guest_hint' : 'chat.guest_hint_signup', { name: bot.name })}
      </p>
      <Composer
        botName={bot.name}
        draftKey={characterDraftKey(bot.slug)}
        busy={false}
        onSend={(text) => {
          keepPendingMessage(bot.slug, text);
          onLoginRequired();
          return false;
        }}
      />
    </ChatFrame>
  );
}

/** The chat's frame while the conversation is being opened. */
export function ChatViewSkeleton() {
  return (
    <div className="flex h-dvh flex-col" aria-busy="true" data-testid="chat-skeleton">
      <div className="flex h-14 items-center gap-3 border-b border-white/10 px-4">
        <Skeleton className="h-9 w-9 rounded-full" />
        <Skeleton className="h-4 w-32" />
      </div>
      <div className="mx-auto flex w-full max-w-3xl flex-1 flex-col justify-end gap-3 px-4 py-4">
        <Skeleton className="h-12 w-2/3" />
        <Skeleton className="ml-auto h-10 w-1/2" />
        <Skeleton className="h-16 w-3/4" />
      </div>
      <div className="border-t border-white/10 px-4 py-3">
        <Skeleton className="h-11 w-full rounded-full" />
      </div>
    </div>
  );
}
