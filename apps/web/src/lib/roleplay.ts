/**
 * Roleplay text: `*actions*` (narration, shown in italics) and `**bold**`, parsed into a small
 * tree that is rendered as React elements (`components/ui/roleplay-text.tsx`). Nothing else is
 * interpreted: there is no HTML, no links, no other Markdown — every other character stays
 * text, so a message can never inject markup.
 *
 * Rules (close to CommonMark's emphasis, kept small):
 * - `**` opens bold, `*` opens an action; an opener must be followed by a non-space, a closer
 *   preceded by one (`2 * 3 * 4` stays literal), and the content must not be empty.
 * - One may nest in the other (`*she says **no***`), at most {@link MAX_DEPTH} levels.
 * - An opener without its closer stays literal (`5* hotel`, `*unfinished`) — except in
 *   `open` mode (a reply still streaming in), where markers still open at the end are taken
 *   as closed by the end, so a half-written action shows in italics at once instead of
 *   flashing its asterisk until the closer arrives; asterisks at the very end wait for the
 *   next piece.
 */
export type RoleplayNode = string | { type: 'em' | 'strong'; children: RoleplayNode[] };

export interface RoleplayOptions {
  /** The text is still arriving: markers open at the end count as closed there. */
  open?: boolean;
}

const MAX_DEPTH = 3;

type Marker = '*' | '**';

const isSpace = (char: string | undefined) => char === undefined || /\s/.test(char);

/** Parses `text` into strings and `em`/`strong` nodes; adjacent strings are merged. */
export function parseRoleplay(source: string, options: RoleplayOptions = {}): RoleplayNode[] {
  const open = options.open ?? false;
  // While streaming, asterisks at the very end are a marker being written (an opener or a
  // closer whose second `*` has not arrived): shown once the next piece says which.
  const text = open ? source.replace(/\*+$/, '') : source;
  const length = text.length;

  /** The marker at `i` (`**` before `*`), or null. */
  const markerAt = (i: number): Marker | null => (text[i] !== '*' ? null : text[i + 1] === '*' ? '**' : '*');

  /** An opener is followed by a non-space (`***x`: bold, then an action opening at `x`). */
  const canOpen = (i: number, marker: Marker) => {
    const next = text[i + marker.length];
    return next === '*' ? !isSpace(text[i + marker.length + 1]) : !isSpace(next);
  };
  const canClose = (i: number) => !isSpace(text[i - 1]);

  interface Result {
    nodes: RoleplayNode[];
    /** Where parsing stopped: after the closer, or the end. */
    end: number;
    closed: boolean;
  }

  /**
   * Parses from `start` until `closer` (or the end). `failed` remembers markers that found no
   * closer at this level, so later openers of that kind are literal at once (linear, not
   * quadratic, on texts full of stray asterisks).
   */
  const parse = (start: number, closer: Marker | null, depth: number): Result => {
    const nodes: RoleplayNode[] = [];
    const failed = new Set<Marker>();
    let buffer = '';
    const flush = () => {
      if (buffer) nodes.push(buffer);
      buffer = '';
    };
    let i = start;
    while (i < length) {
      const marker = markerAt(i);
      if (!marker) {
        buffer += text[i];
        i += 1;
        continue;
      }
      if (closer && i > start && canClose(i)) {
        // The closer of this level.
        if (marker === closer) {
          flush();
          return { nodes, end: i + closer.length, closed: true };
        }
        // `**` inside an action that cannot open bold here ends the action on its first `*`
        // (`*she says **no***`: bold closes, then the action).
        if (closer === '*' && !(depth < MAX_DEPTH && canOpen(i, '**') && !failed.has('**'))) {
          flush();
          return { nodes, end: i + 1, closed: true };
        }
      }
      if (depth < MAX_DEPTH && canOpen(i, marker) && !failed.has(marker) && marker !== closer) {
        const inner = parse(i + marker.length, marker, depth + 1);
        if (inner.closed && inner.nodes.length > 0) {
          flush();
          nodes.push({ type: marker === '**' ? 'strong' : 'em', children: inner.nodes });
          i = inner.end;
          continue;
        }
        if (!inner.closed) failed.add(marker);
      }
      // A literal marker: `**` is taken as two characters only when it cannot open.
      buffer += marker;
      i += marker.length;
    }
    flush();
    // In open mode the end closes whatever is still open, if it holds anything.
    return { nodes, end: length, closed: open && closer !== null && nodes.length > 0 };
  };

  return merge(parse(0, null, 0).nodes);
}

/** Adjacent strings joined (a literal marker between two texts). */
function merge(nodes: RoleplayNode[]): RoleplayNode[] {
  const out: RoleplayNode[] = [];
  for (const node of nodes) {
    const last = out[out.length - 1];
    if (typeof node === 'string' && typeof last === 'string') out[out.length - 1] = last + node;
    else out.push(typeof node === 'string' ? node : { type: node.type, children: merge(node.children) });
  }
  return out;
}

/** The text without its markers (for labels, previews, copying as plain text). */
export function roleplayPlainText(text: string): string {
  const walk = (nodes: RoleplayNode[]): string =>
    nodes.map((node) => (typeof node === 'string' ? node : walk(node.children))).join('');
  return walk(parseRoleplay(text));
}
