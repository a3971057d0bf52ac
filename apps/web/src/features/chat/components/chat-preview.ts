import { MessageKind, type Chat } from '@reverie/shared';
import { roleplayPlainText } from '../../../lib/roleplay';

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
  // Roleplay markers (`*actions*`, `**bold**`) are read, not shown, in a one-line preview.
  const plain = roleplayPlainText(last.text);
  const text = last.role === 'user' ? `${t('chats.you')}: ${plain}` : plain;
  return { text, picture: false };
}
