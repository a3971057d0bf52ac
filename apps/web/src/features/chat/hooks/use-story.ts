import { useCallback, useEffect, useState } from 'react';
import { useQueryClient } from '@tanstack/react-query';
import type { Chat, Message } from '@reverie/shared';
import { showAlert } from '../../../components/ui/alerts';
import { ApiRequestError } from '../../../lib/api-client';
import { useTranslation } from '../../../lib/i18n';
import { branchChat } from '../api/branch-chat';
import { deleteMessage } from '../api/delete-message';
import { editMessage } from '../api/edit-message';
import { getSuggestions } from '../api/get-suggestions';
import { impersonate } from '../api/impersonate';
import { chatKeys } from '../api/keys';
import type { MessageAction } from '../components/message-bubble';
import type { Conversation } from './use-conversation';

/** Whether the user turned suggested replies on (this browser; off by default). */
const SUGGESTIONS_KEY = 'chat-suggestions';
const readSuggestionsOn = () => {
  try {
    return localStorage.getItem(SUGGESTIONS_KEY) === '1';
  } catch {
    return false;
  }
};

/**
 * Where a message's delete is aimed: it alone, or it and the `after` messages that follow
 * (`null` when the loaded window does not reach the newest message, after a jump back in a
 * long chat: how many follow is not known here, and the count of the loaded ones would be wrong).
 */
export interface DeleteTarget {
  message: Message;
  from: boolean;
  after: number | null;
}

/**
 * The story's actions in an open chat (docs/chat.md "Edit, delete and branches", "Write my
 * reply"): a message's menu (edit, branch, delete, delete from here), "Write my reply" and the
 * suggested replies.
 */
export function useStory(chat: Chat, conversation: Conversation, onOpenChat: (chat: Chat) => void) {
  const { t } = useTranslation();
  const client = useQueryClient();
  const [editing, setEditing] = useState<Message | null>(null);
  const [deleting, setDeleting] = useState<DeleteTarget | null>(null);
  const [pending, setPending] = useState(false);
  const { messages, upsert, remove, fail, regenerate, lastBotId } = conversation;
  const { hasNewer } = conversation.history;
  const refreshLists = useCallback(() => void client.invalidateQueries({ queryKey: chatKeys.allLists }), [client]);

  const branch = useCallback(
    async (message: Message) => {
      try {
        const created = await branchChat(chat.id, message.id);
        refreshLists();
        showAlert(t('chat.story.branched'));
        onOpenChat(created);
      } catch (failure) {
        fail(failure);
      }
    },
    [chat.id, fail, onOpenChat, refreshLists, t],
  );

  const onMessageAction = useCallback(
    (action: MessageAction, message: Message) => {
      if (action === 'edit') setEditing(message);
      else if (action === 'branch') void branch(message);
      else {
        const index = messages.findIndex((m) => m.id === message.id);
        const after = hasNewer ? null : messages.slice(index + 1).filter((m) => m.role !== 'system').length;
        setDeleting({ message, from: action === 'delete_from', after });
      }
    },
    [branch, messages, hasNewer],
  );

  /** The reply the newest regenerate would replace, when it answers this message. */
  const lastReply = messages.find((m) => m.id === lastBotId);
  const canRegenerate = (message: Message | null) =>
    Boolean(message && message.role === 'user' && lastReply?.reply_to === message.id);

  const saveEdit = async (text: string, andRegenerate: boolean) => {
    if (!editing) return;
    setPending(true);
    try {
      upsert(await editMessage(chat.id, editing.id, text));
      if (andRegenerate && lastReply && canRegenerate(editing)) regenerate(lastReply.id);
      setEditing(null);
      refreshLists();
    } catch (failure) {
      setEditing(null);
      fail(failure);
    } finally {
      setPending(false);
    }
  };

  const confirmDelete = async () => {
    if (!deleting) return;
    setPending(true);
    try {
      const { removed } = await deleteMessage(chat.id, deleting.message.id, deleting.from);
      remove(removed);
      refreshLists();
    } catch (failure) {
      fail(failure);
    } finally {
      setDeleting(null);
      setPending(false);
    }
  };

  /** Streams the user's next line into the composer (never sends it). */
  const writeMyReply = useCallback(
    async (onText: (text: string) => void, signal: AbortSignal) => {
      let text = '';
      let failed = false;
      try {
        await impersonate(
          chat.id,
          (event) => {
            if (event.event === 'delta') onText((text += event.data.text));
            else if (event.event === 'done') onText(event.data.text);
            else failed = true;
          },
          signal,
        );
      } catch (failure) {
        if (signal.aborted) return;
        if (failure instanceof ApiRequestError && failure.status === 429) {
          showAlert(t('chat.errors.rate_limited_wait', { seconds: failure.retryAfterSeconds ?? 60 }), {
            type: 'error',
          });
          return;
        }
        failed = true;
      }
      if (failed) showAlert(t('chat.story.write_failed'), { type: 'error' });
    },
    [chat.id, t],
  );

  // Suggested replies: only when turned on, once for each newest finished reply.
  const [suggestionsOn, setSuggestionsOn] = useState(readSuggestionsOn);
  const [suggestions, setSuggestions] = useState<{ for: string; list: string[] } | null>(null);
  const last = messages.at(-1);
  // Not in a group chat (docs/groups.md "Web"): its composer shows none.
  const suggestFor =
    suggestionsOn && !chat.scene && !conversation.busy && last?.role === 'bot' && last.state === 'done'
      ? last.id
      : null;
  useEffect(() => {
    if (!suggestFor || suggestions?.for === suggestFor) return;
    const controller = new AbortController();
    setSuggestions({ for: suggestFor, list: [] });
    getSuggestions(chat.id, controller.signal)
      .then((answer) => setSuggestions({ for: suggestFor, list: answer.suggestions }))
      .catch(() => undefined);
    return () => {
      controller.abort();
      // Left before they came (turned off, a send): asked again when this reply is newest again.
      setSuggestions((current) => (current?.for === suggestFor && current.list.length === 0 ? null : current));
    };
    // eslint-disable-next-line react-hooks/exhaustive-deps -- once per reply
  }, [suggestFor, chat.id]);
  const toggleSuggestions = () => {
    const next = !suggestionsOn;
    try {
      localStorage.setItem(SUGGESTIONS_KEY, next ? '1' : '0');
    } catch {
      // A browser without storage keeps the choice for this page only.
    }
    setSuggestionsOn(next);
    showAlert(next ? t('chat.story.suggestions_on') : t('chat.story.suggestions_off'));
  };

  return {
    onMessageAction,
    editing,
    closeEdit: () => setEditing(null),
    canRegenerate: canRegenerate(editing),
    saveEdit,
    deleting,
    closeDelete: () => setDeleting(null),
    confirmDelete,
    pending,
    writeMyReply,
    suggestionsOn,
    toggleSuggestions,
    suggestions: suggestFor && suggestions?.for === suggestFor ? suggestions.list : [],
  };
}
