import { describe, expect, it } from 'vitest';
import { MessageKind, type Chat } from '@reverie/shared';
import { chatPreview } from './chat-preview';

const t = (key: string) => ({ 'chats.you': 'You', 'chats.no_messages': 'No messages yet' })[key] ?? key;
const chatWith = (last: Partial<NonNullable<Chat['last_message']>>) =>
  ({ last_message: { role: 'bot', kind: MessageKind.Text, text: '', ...last } }) as unknown as Chat;

describe('chatPreview', () => {
  it('shows roleplay text without its markers', () => {
    expect(chatPreview(chatWith({ text: '*She smiles* Hello **there**' }), t)).toEqual({
      text: 'She smiles Hello there',
      picture: false,
    });
    expect(chatPreview(chatWith({ role: 'user', text: '*waves* hi' }), t).text).toBe('You: waves hi');
  });
});
