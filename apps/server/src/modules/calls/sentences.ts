import { speechText } from '../audio/index.js';

/** Words the first piece needs before it may end at a clause break (a comma, a colon…). */
const FIRST_CLAUSE_WORDS = 4;

/** Abbreviations whose full stop ends no sentence. */
const ABBREVIATIONS = /(?:^|\s)(?:mr|mrs|ms|dr|prof|st|vs|etc|e\.g|i\.e|z\.b|usw|sr|sra|т\.е|т\.д)\.$/i;

/**
 * What a voice reads from a piece of a reply: roleplay actions between asterisks removed
 * (`*smiles*` is not said), then what `speechText` removes (links, Markdown marks, emoji).
 */
export function spokenText(text: string): string {
  return speechText(text.replace(/\*[^*]*\*/g, ' '));
}

/** True when a piece has something to say. */
const speakable = (text: string) => /[\p{L}\p{N}]/u.test(text);

/**
 * Cuts a reply into sentences while it streams (docs/calls.md): `push` answers the sentences
 * completed by a delta, `flush` the rest at the end. The first piece leaves early, at a clause
 * break once it has a few words, so the character starts speaking sooner. Actions between
 * asterisks are held back until they close and are never spoken.
 */
export class SentenceChunker {
  private buffer = '';
  private emitted = 0;

  push(delta: string): string[] {
    this.buffer += delta;
    const out: string[] = [];
    for (;;) {
      const end = this.nextBoundary();
      if (end < 0) break;
      const piece = this.buffer.slice(0, end);
      this.buffer = this.buffer.slice(end);
      this.emit(piece, out);
    }
    return out;
  }

  flush(): string[] {
    const out: string[] = [];
    // An action never closed is not read either.
    const open = this.openActionAt();
    this.emit(open >= 0 ? this.buffer.slice(0, open) : this.buffer, out);
    this.buffer = '';
    return out;
  }

  private emit(piece: string, out: string[]): void {
    const text = spokenText(piece);
    if (!speakable(text)) return;
    this.emitted += 1;
    out.push(text);
  }

  /** Where an asterisk opens an action not closed yet (odd count), or -1. */
  private openActionAt(): number {
    let open = -1;
    for (let i = 0; i < this.buffer.length; i++) if (this.buffer[i] === '*') open = open < 0 ? i : -1;
    return open;
  }

  /** The end of the first complete piece in the buffer (outside an open action), or -1. */
  private nextBoundary(): number {
    const open = this.openActionAt();
    const text = open >= 0 ? this.buffer.slice(0, open) : this.buffer;
    let inAction = false;
    for (let i = 0; i < text.length; i++) {
      const c = text[i]!;
      if (c === '*') {
        inAction = !inAction;
        continue;
      }
      if (inAction) continue;
      if ('。！？'.includes(c)) return this.extend(text, i + 1);
      if (c === '\n' && speakable(text.slice(0, i).replace(/\*[^*]*\*/g, ''))) return i + 1;
      const next = text[i + 1];
      if (next === undefined) {
        // A sentence mark closing the text so far, after a word (not a number: "3." may go
        // on as "3.5"): the sentence is over, say it now rather than wait for the next piece.
        if ('.!?'.includes(c) && /\p{L}/u.test(text[i - 1] ?? '')) {
          if (c === '.' && ABBREVIATIONS.test(text.slice(Math.max(0, i - 6), i + 1))) break;
          return i + 1;
        }
        break;
      }
      if ('.!?…'.includes(c) && /\s/.test(next)) {
        if (c === '.' && ABBREVIATIONS.test(text.slice(Math.max(0, i - 6), i + 1))) continue;
        return i + 1;
      }
      if (this.emitted === 0 && ',;:，、；：—–'.includes(c) && (/\s/.test(next) || c > '\u2000')) {
        const words =
          text
            .slice(0, i)
            .replace(/\*[^*]*\*/g, ' ')
            .match(/[\p{L}\p{N}']+/gu)?.length ?? 0;
        const han = text.slice(0, i).match(/\p{Script=Han}/gu)?.length ?? 0;
        if (words >= FIRST_CLAUSE_WORDS || han >= FIRST_CLAUSE_WORDS * 2) return i + 1;
      }
    }
    return -1;
  }

  /** Closing quotes and brackets right after a sentence's end belong to it. */
  private extend(text: string, end: number): number {
    while (end < text.length && /["'”’»)」』]/.test(text[end]!)) end++;
    return end;
  }
}
