import { MessageKind, type Chat } from '@reverie/shared';

/**
 * A chat's preview: its last real message (the server never sends a platform notice as
 * `last_message`; one from an older server is skipped here too), a picture by its caption.
 */
export function chatPreview(chat: Chat, t: (key: string) => string): { text: string; picture: boolean } {
  const last = chat.last_message;
  if (!last || last.role === 'system' || last.kind === MessageKind.Processed)
    return { text: t('chats.no_messages'), picture: false };
  if (last.kind === MessageKind.Image || last.kind === MessageKind.BlurImage)
    return { text: last.text || t('chats.picture'), picture: true };
  const text = last.role === 'user' ? `${t('chats.you')}: ${last.text}` : last.text;
  return { text, picture: false };
}
