/** The longest text spoken; longer messages are cut at a sentence (or word) end before it. */
export const MAX_SPEECH_CHARS = 3000;

/**
 * What a voice reads from a message: links, Markdown marks and emoji removed, spaces
 * collapsed, at most MAX_SPEECH_CHARS. Words between asterisks (actions, emphasis) are kept.
 */
export function speechText(text: string): string {
  let clean = text
    .replace(/https?:\/\/\S+/g, ' ')
    .replace(/[*_~`#>|[\]]+/g, ' ')
    .replace(/\p{Extended_Pictographic}/gu, ' ')
    // Emoji joiners, variation selectors and skin tones left over.
    .replace(/\u{200D}|\u{FE0F}|[\u{1F3FB}-\u{1F3FF}]/gu, ' ')
    .replace(/\s+/g, ' ')
    .trim();
  if (clean.length > MAX_SPEECH_CHARS) {
    const cut = clean.slice(0, MAX_SPEECH_CHARS);
    const sentenceEnd = Math.max(...['. ', '! ', '? ', '。', '！', '？'].map((mark) => cut.lastIndexOf(mark)));
    const end = sentenceEnd > MAX_SPEECH_CHARS / 2 ? sentenceEnd + 1 : cut.lastIndexOf(' ');
    clean = cut.slice(0, end > 0 ? end : MAX_SPEECH_CHARS).trim();
  }
  return clean;
}

/** True when the text has something to say (a letter or a digit). */
export const isSpeakable = (text: string) => /[\p{L}\p{N}]/u.test(text);
