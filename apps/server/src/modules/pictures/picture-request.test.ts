import { describe, expect, it } from 'vitest';
import { isPictureRequest } from './picture-request.js';

const REQUESTS: Record<string, string[]> = {
  en: [
    'Send me a pic',
    'send me a selfie please',
    'Can you send me a photo of you?',
    'could you show me a picture of yourself',
    'share a selfie with me',
    'I want to see a photo of you',
    "I'd love to see a picture of you",
    'can I see a pic?',
    'got any pics?',
    'do you have any photos of yourself?',
    'how about a selfie?',
    'What do you look like?',
    'show me yourself',
    'take a selfie for me',
    'pic?',
    'Selfie pls',
    'another photo!',
    'gimme a pic',
    'drop me a pic babe',
    'pics of you?',
  ],
  ch: [
    '发张照片给我',
    '给我发一张自拍吧',
    '来张自拍',
    '能发一张你的照片吗？',
    '让我看看你的照片',
    '我想看看你的样子',
    '你长什么样？',
    '你有照片吗',
    '拍张自拍给我看看',
    '自拍一张给我',
    '晒一张照片嘛',
    '發張照片給我',
  ],
  es: [
    'Mándame una foto',
    'envíame una selfie',
    '¿me mandas una foto tuya?',
    '¿Puedes enviarme una foto?',
    'pásame fotos tuyas',
    'Quiero ver una foto tuya',
    'me gustaría ver tus fotos',
    'hazte una selfie para mí',
    '¿tienes alguna foto?',
    'quiero ver cómo eres',
    '¿Una foto?',
    'foto por favor',
    'enséñame una foto',
  ],
  de: [
    'Schick mir ein Foto',
    'schick mir bitte ein Selfie',
    'Kannst du mir ein Bild von dir schicken?',
    'zeig mir ein Foto von dir',
    'Ich will ein Foto von dir sehen',
    'darf ich ein Bild von dir sehen?',
    'mach mal ein Selfie',
    'Hast du ein Foto?',
    'Wie siehst du aus?',
    'Selfie bitte',
    'noch ein Foto?',
    'sende mir ein paar Bilder',
  ],
  ru: [
    'Пришли фото',
    'скинь фотку',
    'Отправь мне своё селфи',
    'покажи фотографию',
    'можешь прислать фото?',
    'хочу увидеть твоё фото',
    'Можно посмотреть на тебя?',
    'как ты выглядишь?',
    'сфоткайся для меня',
    'сделай селфи',
    'у тебя есть фото?',
    'фотку пж',
    'ещё фото',
    'кинь фоточку',
    'покажись',
  ],
};

const NOT_REQUESTS: Record<string, string[]> = {
  en: [
    'Hello, how are you?',
    'I took a photo of my dog yesterday',
    "I'll send you a photo of my cat",
    'I love photography',
    'my profile picture is old',
    'the picture on the wall was nice',
    "please don't send me pictures",
    'no more selfies',
    'Tell me about your day',
    'I saw that movie, the picture quality was bad',
    'stop sending photos',
  ],
  ch: [
    '你好，今天过得怎么样？',
    '我昨天拍了一张照片',
    '我给你发了一张照片',
    '我喜欢摄影',
    '不要发照片了',
    '这张照片很好看',
    '我发一张照片给你',
  ],
  es: [
    'Hola, ¿qué tal?',
    'Te mando una foto de mi perro',
    'Ayer saqué muchas fotos en la playa',
    'me encanta la fotografía',
    'no me mandes fotos',
    'Cuéntame algo de ti',
  ],
  de: [
    'Hallo, wie geht es dir?',
    'Ich schicke dir ein Foto von meinem Hund',
    'Ich habe gestern viele Fotos gemacht',
    'Das Bild an der Wand ist schön',
    'schick mir bitte keine Fotos',
    'Erzähl mir von deinem Tag',
  ],
  ru: [
    'Привет, как дела?',
    'Я скину тебе фото своей кошки',
    'вчера я сделал много фотографий',
    'люблю фотографию как искусство',
    'не присылай фото',
    'Расскажи о себе',
  ],
};

describe('isPictureRequest', () => {
  for (const [language, texts] of Object.entries(REQUESTS)) {
    it(`recognises requests for a picture in ${language}`, () => {
      const missed = texts.filter((text) => !isPictureRequest(text));
      expect(missed).toEqual([]);
    });
  }
  for (const [language, texts] of Object.entries(NOT_REQUESTS)) {
    it(`ignores other messages in ${language}`, () => {
      const wrong = texts.filter((text) => isPictureRequest(text));
      expect(wrong).toEqual([]);
    });
  }
  it('ignores empty and very long texts', () => {
    expect(isPictureRequest('')).toBe(false);
    expect(isPictureRequest(`send me a pic ${'x'.repeat(600)}`)).toBe(false);
  });
});
