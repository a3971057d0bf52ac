/**
 * Citations asked of the model (docs/memory.md "Citations", `MEMORY_CITATIONS=model`): each
 * memory line of the prompt carries a label (`[m1]`), the prompt asks the model to end a reply
 * that used any of them with one marker line `[[cite: m1, m3]]`, and the server takes the
 * marker out of the reply — while it streams, before anything is shown or saved — keeping the
 * labels it named. The other method (`overlap`, the default) is `drewOn` in retrieval.ts.
 */

/** What the model is told, as the first line of the long-term memory section. */
export const CITATION_INSTRUCTION =
  'Each memory below has a label like [m1]. If your reply uses any of these memories, end it with one last line ' +
  '[[cite: m1, m3]] naming the labels you used, and write nothing after it; if it uses none, add no such line.';

/** A memory's line as the prompt shows it with its label (1-based, in prompt order). */
export const labelledLine = (line: string, index: number): string => `[m${index + 1}] ${line}`;

const MARKER_START = '[[cite';
const MARKER = /\[\[\s*cite\s*:?([^\]]*)\]\]/gi;

/** The 0-based prompt positions a marker's text names (`m1, m3` → 0, 2); unknown labels ignored. */
function labelsOf(inside: string, into: Set<number>): void {
  for (const match of inside.matchAll(/m\s*(\d{1,3})/gi)) into.add(Number(match[1]) - 1);
}

/** How many characters at the end of `text` could begin a marker (`[`, `[[`, `[[c`, …). */
function partialStart(text: string): number {
  const tail = text.slice(-MARKER_START.length).toLowerCase();
  for (let k = Math.min(tail.length, MARKER_START.length); k > 0; k--)
    if (MARKER_START.startsWith(tail.slice(tail.length - k))) return k;
  return 0;
}

/**
 * Takes the citation marker out of a streamed reply: `push` answers the part of the pieces that
 * may be shown now — a possible marker's beginning and trailing white space are held back until
 * the next piece says what they are — and `end` answers what was held that is no marker. The
 * labels named by every marker are `cited` (prompt positions).
 */
export class CitationStream {
  private held = '';
  readonly cited = new Set<number>();

  push(piece: string): string {
    let text = this.held + piece;
    let out = '';
    for (;;) {
      const start = text.toLowerCase().indexOf(MARKER_START);
      if (start < 0) break;
      const close = text.indexOf(']]', start);
      if (close < 0) {
        // An open marker: held whole until it closes (or the reply ends), with the white space before it.
        const before = out + text.slice(0, start);
        const shown = before.trimEnd();
        this.held = before.slice(shown.length) + text.slice(start);
        return shown;
      }
      labelsOf(text.slice(start + MARKER_START.length, close), this.cited);
      out += text.slice(0, start);
      text = text.slice(close + 2);
    }
    // Held back: what could begin a marker, and the white space before it or at the end.
    const all = out + text;
    const cut = all.slice(0, all.length - partialStart(all)).trimEnd().length;
    this.held = all.slice(cut);
    return all.slice(0, cut);
  }

  /** The reply ended: what was held back that is text (not a marker, not trailing space). */
  end(): string {
    const rest = this.held;
    this.held = '';
    const start = rest.toLowerCase().indexOf(MARKER_START);
    if (start >= 0) {
      // A marker the reply ended inside (cut by the token limit): its labels still count.
      labelsOf(rest.slice(start + MARKER_START.length), this.cited);
      return '';
    }
    return rest.trimEnd() === '' ? '' : rest.trimEnd();
  }
}

/** A whole reply without its markers, and the prompt positions they named (a reply not streamed). */
export function stripCitations(text: string): { text: string; cited: number[] } {
  const cited = new Set<number>();
  const without = text.replace(MARKER, (_, inside: string) => {
    labelsOf(inside, cited);
    return '';
  });
  return { text: without.trim(), cited: [...cited] };
}
