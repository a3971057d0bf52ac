import { MessageKind, type Locale, type Message } from '@reverie/shared';
import { pictures as chPictures } from '@reverie/shared/locales/ch.json';
import { pictures as dePictures } from '@reverie/shared/locales/de.json';
import { pictures as enPictures } from '@reverie/shared/locales/en.json';
import { pictures as esPictures } from '@reverie/shared/locales/es.json';
import { pictures as ruPictures } from '@reverie/shared/locales/ru.json';

type Captions = Record<string, string>;

/** The captions the server gives a character's picture (`pictures.captions` of each language). */
const CAPTIONS: Record<Locale, Captions> = {
  en: enPictures.captions,
  ch: chPictures.captions,
  es: esPictures.captions,
  de: dePictures.captions,
  ru: ruPictures.captions,
};

/** Any language's caption text → its key, to show a saved caption in the reader's language. */
const CAPTION_KEYS = new Map<string, string>(
  Object.values(CAPTIONS).flatMap((captions) => Object.entries(captions).map(([key, text]) => [text, key] as const)),
);

/**
 * The words a character answers a picture request with when she has no private picture left to
 * send (or none at all; docs/pictures.md): saved in the user's language of that moment.
 */
const NO_PICTURE_KEYS = ['none_left', 'none_to_send'] as const;
type NoPictureKey = (typeof NO_PICTURE_KEYS)[number];
const NO_PICTURES: Record<Locale, Record<NoPictureKey, string>> = {
  en: enPictures,
  ch: chPictures,
  es: esPictures,
  de: dePictures,
  ru: ruPictures,
};
const NO_PICTURE_TEXT_KEYS = new Map<string, NoPictureKey>(
  Object.values(NO_PICTURES).flatMap((texts) => NO_PICTURE_KEYS.map((key) => [texts[key], key] as const)),
);

const NOTICE_KEYS = {
  ai_disclosure: 'chat_safety.disclosure',
  crisis: 'chat_safety.crisis',
  refusal: 'chat_safety.refusal',
} as const;

type Translate = (key: string, options?: Record<string, unknown>) => string;

/**
 * A message as the reader should see it in the interface language they use now: platform
 * notices (AI disclosure, crisis resources, refusal) are written from their `notice` kind,
 * and a picture's caption the server chose is shown in the current language — both are
 * saved in the language of the moment they were made, which the reader may have changed
 * since; so are the character's words that she has no picture left to send. Everything else (what the user and the character wrote) stays as written.
 */
export function localizeMessage(message: Message, botName: string, t: Translate, locale: Locale): Message {
  if (message.role === 'system' && message.notice) {
    return { ...message, text: t(NOTICE_KEYS[message.notice], { name: botName }) };
  }
  if ((message.kind === MessageKind.Image || message.kind === MessageKind.BlurImage) && message.text) {
    const key = CAPTION_KEYS.get(message.text.trim());
    const text = key ? CAPTIONS[locale][key] : undefined;
    if (text) return { ...message, text };
  }
  if (message.role === 'bot' && message.kind === MessageKind.Text) {
    const key = NO_PICTURE_TEXT_KEYS.get(message.text.trim());
    if (key) return { ...message, text: NO_PICTURES[locale][key] };
  }
  return message;
}
