import { createHash } from 'node:crypto';

/**
 * Search terms of a memory or of the last turns, the same in the five languages (docs/memory.md
 * "Search"): NFKC, lower case, Latin diacritics dropped; words of Latin and Cyrillic script cut to
 * their first STEM_LENGTH letters (a cheap stem: "sisters"/"sister", "собаку"/"собака",
 * "Katzen"/"Katze"), stop words dropped; Chinese (and Japanese, Korean) as overlapping
 * character bigrams, since neither PostgreSQL's `simple` configuration nor a word splitter
 * segments it. Stored scoped to the pair (`<pair>:<term>`) so that one GIN index over the whole
 * table answers "this pair's memories sharing a term" without reading other pairs' rows.
 */

export const STEM_LENGTH = 5;

const STOP_WORDS: ReadonlySet<string> = new Set(
  [
    // en
    'the a an and or but of to in on at for with is are was were be been am i you he she it we they me my your his her its our their this that these those do does did have has had not no yes so as by from about what who how when where why which will would can could just very really there here then than too also like',
    // es
    'el la los las un una unos unas y o pero de del a en con por para es son era fue ser soy eres estoy esta esto este ese esa eso mi mis tu tus su sus que como cuando donde porque muy mas si no yo te me se lo le les nos al ya',
    // de
    'der die das den dem des ein eine einen einem einer und oder aber von zu in im am an auf für mit ist sind war waren bin bist sein ich du er sie es wir ihr mein meine dein deine sein seine nicht kein ja so wie wann wo warum was wer sehr auch noch schon',
    // ru
    'и в во на с со к ко по за из у о об от до не ни да но а или что как это этот эта эти то тот та я ты он она оно мы вы они мне меня тебе тебя мой моя моё мои твой твоя его её их бы же ли был была было были есть очень так уже ещё',
  ]
    .join(' ')
    .split(/\s+/)
    // Compared with the words as `normalize` leaves them: "für" is "fur" there.
    .map((word) => normalize(word)),
);

const HAN_LIKE = /[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\p{Script=Hangul}]/u;
/**
 * A run of Han-like characters, or a word of other letters and digits. The word stops where
 * Han-like characters begin (they are letters too): "Alex的妹妹" is `alex` and the bigrams of 的妹妹.
 */
const TOKEN =
  /[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\p{Script=Hangul}]+|(?:(?![\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\p{Script=Hangul}])[\p{L}\p{N}])+/gu;
/** Chinese function characters: a bigram of two of them says nothing. */
const HAN_STOP = new Set([...'的了是我你他她它们在和也就都这那有个吗呢吧啊不很']);

function normalize(text: string): string {
  return text
    .normalize('NFKC')
    .toLowerCase()
    .normalize('NFD')
    .replace(/(\p{Script=Latin})\p{M}+/gu, '$1')
    .normalize('NFC');
}

/** The search terms of a text, each once, in order of appearance. */
export function searchTerms(text: string): string[] {
  const terms = new Set<string>();
  for (const [token] of normalize(text).matchAll(TOKEN)) {
    if (HAN_LIKE.test(token[0]!)) {
      const chars = [...token];
      if (chars.length === 1) {
        if (!HAN_STOP.has(chars[0]!)) terms.add(chars[0]!);
        continue;
      }
      for (let i = 0; i + 1 < chars.length; i++) {
        if (HAN_STOP.has(chars[i]!) && HAN_STOP.has(chars[i + 1]!)) continue;
        terms.add(chars[i]! + chars[i + 1]!);
      }
      continue;
    }
    if (STOP_WORDS.has(token)) continue;
    if (token.length < 2 && !/\d/.test(token)) continue;
    terms.add([...token].slice(0, STEM_LENGTH).join(''));
  }
  return [...terms];
}

/** A short key of the user and character pair (8 characters): the prefix of its stored terms. */
export function pairKey(userId: string, botId: string): string {
  return createHash('sha256').update(`${userId}:${botId}`).digest('base64url').slice(0, 8);
}

/** The stored terms of a memory: its search terms scoped to the pair, at most 64. */
export function scopedTerms(userId: string, botId: string, text: string): string[] {
  const key = pairKey(userId, botId);
  return searchTerms(text)
    .slice(0, 64)
    .map((term) => `${key}:${term}`);
}

/** What makes two memories the same statement: the text without case, marks, punctuation or spacing. */
export function dedupeKey(text: string): string {
  return [...normalize(text).matchAll(/[\p{L}\p{N}]+/gu)]
    .map((m) => m[0])
    .join(' ')
    .slice(0, 300);
}
