import { describe, expect, it } from 'vitest';
import { detectLanguage } from './language.js';
import { speechText } from './speech-text.js';

describe('the language of a message', () => {
  const cases: [string, string][] = [
    ['Hello there, how are you today?', 'en'],
    ['You are so sweet to me', 'en'],
    ['I miss you', 'en'],
    ['Hola, ¿cómo estás?', 'es'],
    ['Te extraño mucho', 'es'],
    ['Eres muy guapo', 'es'],
    ['Guten Morgen, wie geht es dir?', 'de'],
    ['Ich liebe dich', 'de'],
    ['Du bist so süß', 'de'],
    ['Привет, как дела?', 'ru'],
    ['Ok, давай завтра', 'ru'],
    ['你好，今天过得怎么样？', 'ch'],
    ['我喜欢 Netflix 的新剧', 'ch'],
  ];
  for (const [text, language] of cases) {
    it(`"${text}" is ${language}`, () => expect(detectLanguage(text, 'en')).toBe(language));
  }

  it("falls back to the request's locale when the text gives no sign", () => {
    expect(detectLanguage('😘', 'ru')).toBe('ru');
    expect(detectLanguage('ok', 'de')).toBe('de');
    // Latin script with no sign, for a Russian or Chinese reader: English.
    expect(detectLanguage('ok', 'ru')).toBe('en');
  });
});

describe('what the voice reads', () => {
  it('drops links, Markdown marks and emoji, keeps the words', () => {
    expect(speechText('*smiles* Look at https://example.com/x 😘💕 **really**!')).toBe('smiles Look at really !');
  });

  it('cuts very long texts at a sentence end', () => {
    const long = 'This is one sentence. '.repeat(400);
    const spoken = speechText(long);
    expect(spoken.length).toBeLessThanOrEqual(3000);
    expect(spoken.endsWith('.')).toBe(true);
  });
});
