import { franc } from 'franc-min';
import type { Locale } from '@reverie/shared';

/** Frequent short words of each Latin-script language (written for this detector). */
const STOP_WORDS: Record<'en' | 'es' | 'de', Set<string>> = {
  en: new Set(
    "the and you are is it to of in that this what with for have was not my me your i i'm do don't can just so but be we they he she at on how all about would like really know there".split(
      ' ',
    ),
  ),
  es: new Set(
    'el la los las que de y en un una es por para con no me te mi tu su pero como más muy estás estoy eres soy qué cómo lo le se al del bien hola sí también quiero tengo hoy ya'.split(
      ' ',
    ),
  ),
  de: new Set(
    'der die das und ich du ist nicht ein eine zu mit mich dich mir dir sie wir es auf für den dem was wie bist bin aber auch so noch sehr schon hallo ja nein heute gut'.split(
      ' ',
    ),
  ),
};

const FRANC_CODES: Record<string, 'en' | 'es' | 'de'> = { eng: 'en', spa: 'es', deu: 'de' };

function count(text: string, pattern: RegExp): number {
  return text.match(pattern)?.length ?? 0;
}

/** en, es or de for a Latin-script text; null when the text gives no clear sign. */
function latinLanguage(text: string): 'en' | 'es' | 'de' | null {
  const lower = text.toLowerCase();
  const scores = { en: 0, es: 0, de: 0 };
  for (const word of lower.match(/[\p{L}']+/gu) ?? []) {
    for (const language of ['en', 'es', 'de'] as const) if (STOP_WORDS[language].has(word)) scores[language] += 1;
  }
  // Letters and marks only one of the three languages writes.
  scores.es += 2 * count(lower, /[ñ¿¡]/g) + count(lower, /[áíóú]/g);
  scores.de += 2 * count(lower, /[äöüß]/g);
  const ranked = (Object.entries(scores) as ['en' | 'es' | 'de', number][]).sort((a, b) => b[1] - a[1]);
  const [[best, top], [, second]] = ranked as [['en' | 'es' | 'de', number], ['en' | 'es' | 'de', number]];
  if (top >= 2 && top >= second * 2) return best;
  // Longer texts: character trigrams (franc) decide between the three.
  if (count(lower, /\p{L}/gu) >= 20) {
    const guess = FRANC_CODES[franc(text, { only: Object.keys(FRANC_CODES), minLength: 20 })];
    if (guess) return guess;
  }
  return top > second ? best : null;
}

/**
 * The language a message is written in, among the five the voices speak: Cyrillic is
 * Russian, Chinese characters are Mandarin, Latin script is English, Spanish or German
 * (stop words and special letters, then character trigrams). Falls back to the request's
 * locale when the text gives no sign (emoji only, "ok").
 */
export function detectLanguage(text: string, fallback: Locale): Locale {
  const han = count(text, /\p{Script=Han}/gu);
  const cyrillic = count(text, /\p{Script=Cyrillic}/gu);
  const latin = count(text, /\p{Script=Latin}/gu);
  // A Chinese character carries about as much as a short word: weigh it more than a letter.
  if (han > 0 && han * 3 >= Math.max(cyrillic, latin)) return 'ch';
  if (cyrillic > 0 && cyrillic >= latin) return 'ru';
  if (latin === 0) return fallback;
  const guess = latinLanguage(text);
  if (guess) return guess;
  return fallback === 'en' || fallback === 'es' || fallback === 'de' ? fallback : 'en';
}
