import { createHash } from 'node:crypto';

/**
 * A deterministic test embedder (docs/memory.md "Embeddings"): no model, the same vector for
 * the same text on every machine. A text's words (lower case, Latin marks dropped) and Chinese
 * characters are hashed into DIMS buckets by their character trigrams — so inflected forms
 * ("sister", "sisters"; "собака", "собаку") land near each other — and a small table of
 * concepts maps words of the five languages that mean the same thing (cat, gato, Katze, кошка,
 * 猫) to one shared bucket each, which full-text search cannot see. Unit length.
 */
export const FAKE_EMBEDDING_DIMS = 256;

/** Words that mean the same thing across the five languages (a few families for the probe set). */
const CONCEPTS: string[][] = [
  ['cat', 'kitten', 'gato', 'gata', 'katze', 'kater', 'кошка', 'кот', 'котёнок', '猫', '小猫'],
  ['dog', 'puppy', 'perro', 'perra', 'hund', 'welpe', 'собака', 'пёс', 'щенок', '狗', '小狗'],
  ['sister', 'hermana', 'schwester', 'сестра', '姐姐', '妹妹'],
  ['brother', 'hermano', 'bruder', 'брат', '哥哥', '弟弟'],
  ['mother', 'mom', 'madre', 'mamá', 'mutter', 'mama', 'мама', 'мать', '妈妈', '母亲'],
  ['father', 'dad', 'padre', 'papá', 'vater', 'papa', 'папа', 'отец', '爸爸', '父亲'],
  ['work', 'job', 'trabajo', 'arbeit', 'job', 'работа', '工作'],
  ['city', 'town', 'ciudad', 'stadt', 'город', '城市'],
  ['music', 'song', 'música', 'canción', 'musik', 'lied', 'музыка', 'песня', '音乐', '歌'],
  ['food', 'dish', 'comida', 'plato', 'essen', 'gericht', 'еда', 'блюдо', '食物', '菜'],
  ['birthday', 'cumpleaños', 'geburtstag', 'день рождения', '生日'],
  ['travel', 'trip', 'viaje', 'reise', 'путешествие', 'поездка', '旅行'],
  ['book', 'novel', 'libro', 'novela', 'buch', 'roman', 'книга', 'роман', '书', '小说'],
  ['sport', 'football', 'deporte', 'fútbol', 'sport', 'fußball', 'спорт', 'футбол', '运动', '足球'],
  ['color', 'colour', 'color', 'farbe', 'цвет', '颜色'],
  ['afraid', 'fear', 'miedo', 'angst', 'страх', 'боится', '害怕', '怕'],
];

const concept = new Map<string, number>();
CONCEPTS.forEach((words, i) => {
  for (const word of words) concept.set(word, i);
});

const bucket = (s: string) => createHash('md5').update(s).digest().readUInt32LE(0) % FAKE_EMBEDDING_DIMS;

export function fakeEmbedding(text: string): number[] {
  const v = new Array<number>(FAKE_EMBEDDING_DIMS).fill(0);
  const norm = text
    .normalize('NFKC')
    .toLowerCase()
    .normalize('NFD')
    .replace(/(\p{Script=Latin})\p{M}+/gu, '$1')
    .normalize('NFC');
  const add = (key: string, weight: number) => (v[bucket(key)]! += weight);
  for (const [word] of norm.matchAll(/\p{Script=Han}|[\p{L}\p{N}]+/gu)) {
    const c = concept.get(word) ?? [...concept.keys()].find((k) => k.length >= 4 && word.startsWith(k.slice(0, -1)));
    const id = typeof c === 'string' ? concept.get(c) : c;
    if (id !== undefined) add(`concept:${id}`, 3);
    if (/\p{Script=Han}/u.test(word)) {
      add(`han:${word}`, 1);
      continue;
    }
    const padded = `#${word}#`;
    for (let i = 0; i + 3 <= padded.length; i++) add(`tri:${padded.slice(i, i + 3)}`, 1 / Math.sqrt(word.length));
  }
  const length = Math.sqrt(v.reduce((s, x) => s + x * x, 0)) || 1;
  return v.map((x) => x / length);
}
