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

/**
 * The looks of the private pictures (the ones a character sends in chat, never on its page):
 * for each style a dozen other expressions — mouth and eyes — of the same face. Together with
 * a background, a mirrored pose and a slight tilt per picture, each is a new drawing.
 */
const PRIVATE_LOOKS = new Map<AnyStyle, Record<string, string>[]>([
  [
    lorelei,
    [
      ['happy02', 'variant03'],
      ['happy03', 'variant07'],
      ['happy04', 'variant11'],
      ['happy05', 'variant15'],
      ['happy06', 'variant19'],
      ['happy07', 'variant23'],
      ['happy09', 'variant02'],
      ['happy10', 'variant06'],
      ['happy11', 'variant10'],
      ['happy13', 'variant14'],
      ['happy14', 'variant18'],
      ['happy15', 'variant22'],
    ].map(([mouth, eyes]) => ({ mouth: mouth!, eyes: eyes! })),
  ],
  [
    adventurer,
    [
      ['variant01', 'variant02'],
      ['variant03', 'variant04'],
      ['variant07', 'variant06'],
      ['variant09', 'variant08'],
      ['variant11', 'variant10'],
      ['variant13', 'variant12'],
      ['variant15', 'variant14'],
      ['variant20', 'variant16'],
      ['variant22', 'variant19'],
      ['variant24', 'variant21'],
      ['variant27', 'variant23'],
      ['variant29', 'variant25'],
    ].map(([mouth, eyes]) => ({ mouth: mouth!, eyes: eyes! })),
  ],
  [
    personas,
    [
      ['smile', 'open'],
      ['bigSmile', 'happy'],
      ['smirk', 'wink'],
      ['lips', 'open'],
      ['surprise', 'open'],
      ['smile', 'sunglasses'],
      ['bigSmile', 'wink'],
      ['smirk', 'happy'],
      ['lips', 'wink'],
      ['smile', 'glasses'],
      ['bigSmile', 'sunglasses'],
      ['smirk', 'glasses'],
    ].map(([mouth, eyes]) => ({ mouth: mouth!, eyes: eyes! })),
  ],
  [
    micah,
    [
      ['smile', 'smiling'],
      ['laughing', 'eyes'],
      ['smirk', 'round'],
      ['pucker', 'smiling'],
      ['surprised', 'round'],
      ['nervous', 'eyesShadow'],
      ['smile', 'eyes'],
      ['laughing', 'smilingShadow'],
      ['smirk', 'eyesShadow'],
      ['pucker', 'eyes'],
      ['smile', 'round'],
      ['laughing', 'smiling'],
    ].map(([mouth, eyes]) => ({ mouth: mouth!, eyes: eyes! })),
  ],
]);

/** How many private pictures an official character has (`renderPicture` variants 4 and up). */
export const PRIVATE_PICTURE_COUNT = 12;
/** The first variant of the private pictures: 0 is the avatar, 1–3 the page's gallery. */
export const FIRST_PRIVATE_VARIANT = 4;
const TILTS = [-8, 6, -4, 8, 0, -6, 4, -2, 2, -8, 6, 0];

const BACKGROUNDS = ['f9c6d0', 'c9b6f2', 'b6e3f4', 'ffd5dc', 'ffdfbf', 'd1f4d9', 'fde68a', 'c0aede'];

/**
 * One picture of a character. The style and seed stay the same for a character, so its
 * avatar and gallery show the same face; a gallery variant (1–3) changes the background, the
 * pose (mirrored) and the expression; a private variant (4 and up, `PRIVATE_LOOKS`) the
 * expression and eyes, the background, the pose and the tilt.
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
  const privateIndex = options.variant - FIRST_PRIVATE_VARIANT;
  const privateLooks = PRIVATE_LOOKS.get(entry.style)!;
  const look = privateIndex >= 0 ? privateLooks[privateIndex % privateLooks.length]! : null;
  const expression =
    options.variant > 0 && !look ? EXPRESSIONS.get(entry.style)?.[(options.variant - 1) % 3] : undefined;
  const svg = createAvatar(entry.style, {
    seed: options.seed,
    size,
    backgroundColor: [BACKGROUNDS[(h + options.variant * 3) % BACKGROUNDS.length]!],
    ...entry.options[options.gender ?? 'f'],
    ...(expression ? { mouth: [expression] } : {}),
    ...(look ? { mouth: [look.mouth], eyes: [look.eyes], rotate: TILTS[privateIndex % TILTS.length] } : {}),
    ...(options.variant % 2 === 1 ? { flip: true } : {}),
    ...(options.variant > 0 && !look ? { scale: 90 + options.variant * 5 } : {}),
    ...(look ? { scale: 95 + (privateIndex % 4) * 5 } : {}),
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
