import { createAvatar, type Style } from '@dicebear/core';
import { adventurer, lorelei, micah, personas } from '@dicebear/collection';
import sharp from 'sharp';

/**
 * Offline character pictures: DiceBear styles rendered to PNG with sharp. Anime characters
 * use the manga-like styles (lorelei, adventurer), the others the flat cartoon ones (personas,
 * micah): drawings, never realistic art. Options keep every picture adult-looking (no pacifiers, no pigtails).
 * Licences: docs/characters.md, "Credits".
 */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
type AnyStyle = Style<any>;
export type PictureLook = 'anime' | 'cartoon';
type Gender = 'f' | 'm';

const range = (prefix: string, from: number, to: number) =>
  Array.from({ length: to - from + 1 }, (_, i) => `${prefix}${String(from + i).padStart(2, '0')}`);

const STYLES: Record<PictureLook, { style: AnyStyle; options: Record<Gender, Record<string, unknown>> }[]> = {
  anime: [
    {
      style: lorelei,
      options: { f: { beardProbability: 0 }, m: { beardProbability: 20, earringsProbability: 0 } },
    },
    {
      style: adventurer,
      options: {
        f: { hair: range('long', 1, 26), features: ['blush', 'freckles'] },
        m: { hair: range('short', 1, 19), features: ['birthmark', 'freckles'], earringsProbability: 0 },
      },
    },
  ],
  cartoon: [
    {
      style: personas,
      options: {
        f: {
          hair: ['long', 'bobCut', 'curly', 'curlyBun', 'bobBangs', 'straightBun', 'extraLong', 'curlyHighTop'],
          mouth: ['smile', 'bigSmile', 'smirk', 'lips'],
          facialHairProbability: 0,
        },
        m: {
          hair: ['shortCombover', 'buzzcut', 'fade', 'curlyHighTop', 'shortComboverChops', 'sideShave'],
          mouth: ['smile', 'bigSmile', 'smirk'],
          facialHairProbability: 40,
        },
      },
    },
    {
      style: micah,
      options: {
        f: {
          hair: ['full', 'pixie', 'dannyPhantom'],
          mouth: ['smile', 'laughing', 'smirk', 'pucker'],
          eyebrows: ['eyelashesUp', 'eyelashesDown'],
          facialHairProbability: 0,
        },
        m: {
          hair: ['fonze', 'dougFunny', 'mrT', 'mrClean'],
          mouth: ['smile', 'laughing', 'smirk'],
          eyebrows: ['up', 'down'],
          facialHairProbability: 40,
          earringsProbability: 0,
        },
      },
    },
  ],
};

/** Three expressions per style for the gallery pictures. */
const EXPRESSIONS = new Map<AnyStyle, string[]>([
  [lorelei, ['happy01', 'happy08', 'happy12']],
  [adventurer, ['variant05', 'variant18', 'variant26']],
  [personas, ['bigSmile', 'smirk', 'lips']],
  [micah, ['laughing', 'smirk', 'pucker']],
]);

const BACKGROUNDS = ['f9c6d0', 'c9b6f2', 'b6e3f4', 'ffd5dc', 'ffdfbf', 'd1f4d9', 'fde68a', 'c0aede'];

/**
 * One picture of a character. The style and seed stay the same for a character, so its
 * avatar and gallery show the same face; a gallery variant changes the background, the
 * pose (mirrored) and the expression.
 */
export async function renderPicture(options: {
  seed: string;
  look: PictureLook;
  variant: number;
  gender?: Gender;
  size?: number;
}): Promise<Buffer> {
  const styles = STYLES[options.look];
  const h = hash(options.seed);
  const entry = styles[h % styles.length]!;
  const size = options.size ?? 512;
  const expression = options.variant > 0 ? EXPRESSIONS.get(entry.style)?.[(options.variant - 1) % 3] : undefined;
  const svg = createAvatar(entry.style, {
    seed: options.seed,
    size,
    backgroundColor: [BACKGROUNDS[(h + options.variant * 3) % BACKGROUNDS.length]!],
    ...entry.options[options.gender ?? 'f'],
    ...(expression ? { mouth: [expression] } : {}),
    ...(options.variant % 2 === 1 ? { flip: true } : {}),
    ...(options.variant > 0 ? { scale: 90 + options.variant * 5 } : {}),
  }).toString();
  return sharp(Buffer.from(svg)).png({ compressionLevel: 6 }).toBuffer();
}

/**
 * The drawn style for a character's tags: the flat cartoon styles for a `cartoon` or
 * `realistic` one (a custom realistic character without a photo of its own gets a drawing:
 * there is nothing offline to make realistic art with), else the anime ones.
 */
export const pictureLook = (tags: readonly string[]): PictureLook =>
  tags.includes('cartoon') || tags.includes('realistic') ? 'cartoon' : 'anime';

function hash(text: string): number {
  let h = 0;
  for (const ch of text) h = (h * 31 + ch.charCodeAt(0)) >>> 0;
  return h;
}
