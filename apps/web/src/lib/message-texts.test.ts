import { beforeAll, describe, expect, it } from 'vitest';
import { MessageKind, type Message } from '@reverie/shared';
import en from '@reverie/shared/locales/en.json';
import ru from '@reverie/shared/locales/ru.json';
import { createTranslator } from './i18n';
import { localizeMessage } from './message-texts';

const instance = createTranslator({ lng: 'ru', resources: { en, ru } });
beforeAll(() => instance.changeLanguage('ru'));
const t = (key: string, options?: Record<string, unknown>) => instance.t(key, options);

const base: Message = {
  id: 'm1',
  chat_id: 'c1',
  client_id: null,
  role: 'system',
  kind: MessageKind.Text,
  text: 'Luna is an AI character, not a real person.',
  img_url: null,
  has_audio: false,
  state: 'done',
  created_at: '2026-11-12T10:00:00Z',
  reply_to: null,
  alt_index: 0,
  alt_count: 1,
  error_code: null,
  spoken: false,
  edited_at: null,
  proactive: false,
  notice: 'ai_disclosure',
};

describe('localizeMessage', () => {
  it('writes a notice saved in English in the language the reader uses now', () => {
    const shown = localizeMessage(base, 'Luna', t, 'ru');
    expect(shown.text).toBe(ru.chat_safety.disclosure.replace('{{name}}', 'Luna'));
    expect(localizeMessage({ ...base, notice: 'crisis' }, 'Luna', t, 'ru').text).toBe(ru.chat_safety.crisis);
    expect(localizeMessage({ ...base, notice: 'refusal' }, 'Luna', t, 'ru').text).toBe(ru.chat_safety.refusal);
  });

  it("shows the server's picture captions in the reader's language, whatever language saved them", () => {
    const picture = {
      ...base,
      role: 'bot' as const,
      notice: null,
      kind: MessageKind.BlurImage,
      text: 'Solo para ti 😘',
    };
    expect(localizeMessage(picture, 'Luna', t, 'ru').text).toBe('Только для тебя 😘');
    expect(localizeMessage({ ...picture, text: 'Только для тебя 😘' }, 'Luna', t, 'en').text).toBe('Just for you 😘');
  });

  it("shows a character's words that she has no picture left in the reader's language", () => {
    const words = { ...base, role: 'bot' as const, notice: null, text: en.pictures.none_left };
    expect(localizeMessage(words, 'Luna', t, 'ru').text).toBe(ru.pictures.none_left);
    const none = { ...words, text: ru.pictures.none_to_send };
    expect(localizeMessage(none, 'Luna', t, 'en').text).toBe(en.pictures.none_to_send);
    // Only the character's own plain answer: a user quoting it stays as typed.
    const quoted = { ...words, role: 'user' as const };
    expect(localizeMessage(quoted, 'Luna', t, 'ru')).toBe(quoted);
  });

  it('leaves what people and characters wrote as it is', () => {
    const reply = { ...base, role: 'bot' as const, notice: null, text: 'Just for you 😘' };
    expect(localizeMessage(reply, 'Luna', t, 'ru')).toBe(reply);
    const picture = { ...reply, kind: MessageKind.Image, text: 'A sunset on the pier' };
    expect(localizeMessage(picture, 'Luna', t, 'ru')).toBe(picture);
    const plain = { ...base, notice: null, text: 'Something else' };
    expect(localizeMessage(plain, 'Luna', t, 'ru')).toBe(plain);
  });
});
