import type { Message } from '@reverie/shared';

/**
 * How tall a message's row will be before it is drawn (docs/chat.md "Long chats").
 *
 * react-virtuoso lays out the rows it has not drawn at a size it guesses and, when it draws one,
 * moves the view by the difference. Left to itself, it takes the first row it measures as the size
 * of every row, and it puts each older page in front, and each new message at the end, at the size
 * it was first given for the first row (measured in a standalone page, bench/README.md). A guess
 * far from the truth makes each row drawn on the way up push the view back, so that the rows at
 * the edge of the view are dropped and drawn again frame after frame (bench/README.md "Long-chat
 * scroll"). So the list starts from each message's own estimate (its text's lines in the bubble),
 * the first row's replaced by the window's mean, which thus becomes the guess for every older page
 * and every new message.
 */

/** The text of a bubble: 0.95rem at 1.625 line height (message-bubble.tsx). */
const FONT_REM = 0.95;
const LINE_HEIGHT = 1.625;
/** The list's widest column (max-w-3xl) and the window width from which its padding grows (sm). */
const LIST_MAX = 768;
const WIDE_WINDOW = 640;
/** What a user's row adds to its lines of text: the bubble's padding, the row's gaps and margin. */
const USER_ROW = 63;
/** The character's row: its bubble's padding and border, the row of actions under it, the margin. */
const BOT_ROW = 66;
/** A notice from the app: a line or two of small text in a box. */
const NOTICE_ROW = 72;
/** A picture in a row: a frame 16rem wide at 3:4, and its border (media/components/chat-picture.tsx). */
const PICTURE = 343;
/** Lines break between words, not at the box's edge: a line holds a little less than its width. */
const FILL = 0.96;
/** A sentence of everyday text: its width gives the font's mean letter width. */
const SAMPLE = 'She smiled, poured two cups of tea and asked how the day had gone.';

export interface RowMetrics {
  /** The width of the text in a user's bubble and in the character's, in px. */
  userText: number;
  botText: number;
  lineHeight: number;
  /** The mean width of a letter, and of an ideograph (kana, hangul), in px. */
  letter: number;
  ideograph: number;
}

/** Ideographs, CJK punctuation, kana, hangul and full-width forms: a full em each. */
const WIDE = /[\u1100-\u115f\u2e80-\ua4cf\uac00-\ud7a3\uf900-\ufaff\ufe30-\ufe4f\uff00-\uff60\uffe0-\uffe6]/g;

/**
 * The mean letter width of the page's font at `size` px: a sample sentence measured on a canvas
 * (no layout of the page), or half an em where there is no canvas (tests).
 */
function letterWidth(doc: Document | undefined, size: number): number {
  const context = doc?.body ? doc.createElement('canvas').getContext?.('2d') : null;
  if (!context || !doc) return size / 2;
  context.font = `${size}px ${getComputedStyle(doc.body).fontFamily}`;
  const width = context.measureText(SAMPLE).width;
  return width > 0 ? width / SAMPLE.length : size / 2;
}

const known = new Map<number, RowMetrics>();

/** The bubbles' metrics in a window `windowWidth` px wide (measured once for each width). */
export function rowMetrics(windowWidth: number, doc: Document | undefined = globalThis.document): RowMetrics {
  const cached = known.get(windowWidth);
  if (cached) return cached;
  const rem = (doc && parseFloat(getComputedStyle(doc.documentElement).fontSize)) || 16;
  const size = FONT_REM * rem;
  const wide = windowWidth >= WIDE_WINDOW;
  const list = Math.min(windowWidth, LIST_MAX) - (wide ? 32 : 24);
  const metrics: RowMetrics = {
    // A user's bubble: after the row's left margin (pl-10), at most 85 % of it (70 % when wide),
    // less its padding (px-4).
    userText: (list - 40) * (wide ? 0.7 : 0.85) - 32,
    // The character's: the row less its right margin (pr-6) and the avatar with its gap, at most
    // 36rem when wide (sm:max-w-xl), less the padding and the border.
    botText: Math.min(list - 64, wide ? 36 * rem : Infinity) - 34,
    lineHeight: size * LINE_HEIGHT,
    letter: letterWidth(doc, size),
    ideograph: size,
  };
  known.set(windowWidth, metrics);
  return metrics;
}

/** Lines of `text` in a box `width` px wide, each paragraph its own. */
export function textLines(text: string, width: number, metrics: RowMetrics): number {
  const room = Math.max(width, metrics.ideograph) * FILL;
  let count = 0;
  for (const paragraph of text.split('\n')) {
    const wide = paragraph.match(WIDE)?.length ?? 0;
    const length = (paragraph.length - wide) * metrics.letter + wide * metrics.ideograph;
    count += Math.max(1, Math.ceil(length / room));
  }
  return count;
}

/** The estimated height of a message's row, in px. */
export function estimateRowHeight(message: Message, metrics: RowMetrics): number {
  if (message.notice) return NOTICE_ROW;
  const bot = message.role !== 'user';
  const text = message.text ? textLines(message.text, bot ? metrics.botText : metrics.userText, metrics) : 0;
  return Math.round((bot ? BOT_ROW : USER_ROW) + text * metrics.lineHeight + (message.img_url ? PICTURE : 0));
}

/**
 * What react-virtuoso starts from (its `heightEstimates`, read once, before it has measured a
 * row): each message's estimate, the first replaced by their mean.
 */
export function rowEstimates(messages: Message[], metrics: RowMetrics): number[] {
  if (messages.length === 0) return [];
  const sizes = messages.map((message) => estimateRowHeight(message, metrics));
  const mean = Math.round(sizes.reduce((sum, size) => sum + size, 0) / sizes.length);
  sizes[0] = mean;
  return sizes;
}
