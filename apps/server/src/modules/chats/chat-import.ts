/**
 * A SillyTavern chat JSONL imported into a new chat (docs/chat.md "Import"): the file, spooled
 * to disk, is read line by line (node:readline over a stream) and written in batches inside one
 * transaction — a file of any allowed length in constant memory, and nothing left of a bad one.
 */
import { randomUUID } from 'node:crypto';
import readline from 'node:readline';
import { z } from 'zod';
import { cleanFreeText, MessageKind } from '@reverie/shared';
import { AppError } from '../../lib/errors.js';
import { estimateTokens } from '../../providers/llm/llm.js';
import type { NewMessageRow } from './messages.repository.js';

/** The largest file accepted (413 `payload_too_large` past it). */
export const IMPORT_MAX_BYTES = 20 * 1024 * 1024;
/** The most messages one file may hold (422 `import_too_many_messages` past it). */
export const IMPORT_MAX_MESSAGES = 100_000;
/** Messages written by one insert. */
export const IMPORT_BATCH = 500;
/** The longest message text accepted (a character's long reply fits; 422 past it). */
const IMPORT_TEXT_MAX = 100_000;
/** The most alternatives (swipes) one reply keeps; SillyTavern's further swipes are left out. */
export const IMPORT_MAX_SWIPES = 100;

/** SillyTavern's first line. Only the character's name is read (to match the chosen character). */
const HeaderSchema = z.looseObject({
  character_name: z.string().max(500).optional(),
  user_name: z.string().max(500).optional(),
});

/** A message line; `send_date` is an ISO string, SillyTavern's "November 27, 2026 9:40pm" or epoch ms. */
const LineSchema = z.looseObject({
  is_user: z.boolean().optional(),
  is_system: z.boolean().optional(),
  send_date: z.union([z.string().max(100), z.number()]).optional(),
  mes: z.string().max(IMPORT_TEXT_MAX),
});

/** A reply's alternatives: read when well formed, else the line keeps only `mes`. */
const SwipesSchema = z.looseObject({
  swipes: z.array(z.string().max(IMPORT_TEXT_MAX)).min(2),
  swipe_id: z.number().int().nonnegative(),
  swipe_info: z.array(z.unknown()).optional().catch(undefined),
});
const SwipeInfoSchema = z.looseObject({ send_date: z.union([z.string().max(100), z.number()]).optional() });

export interface ImportHeader {
  characterName: string | null;
}

export const badLine = (line: number, reason: string) =>
  new AppError('import_bad_line', {
    status: 422,
    detail: `Line ${line} of the file is not a SillyTavern chat line (${reason})`,
    errors: { line: [String(line)] },
  });

function parse(text: string, line: number): unknown {
  try {
    return JSON.parse(text);
  } catch {
    throw badLine(line, 'not JSON');
  }
}

function dateOf(value: string | number | undefined, fallback: Date): Date {
  if (value === undefined) return fallback;
  // Older SillyTavern files: "November 27, 2026 9:40pm" (Date.parse needs a space before am/pm).
  const text = typeof value === 'string' ? value.replace(/(\d)(am|pm)$/i, '$1 $2') : value;
  const date = new Date(text);
  const time = date.getTime();
  return Number.isFinite(time) && time > 0 && time < 8.64e15 ? date : fallback;
}

/**
 * A character line's alternatives, when it answers the user line just before (our alternatives
 * hang on the message they answer): one row per swipe with a text, the shown one (`swipe_id`,
 * its text `mes`) selected, each at its `swipe_info` time if readable; null otherwise.
 */
function alternativeRows(value: unknown, row: NewMessageRow, answered: NewMessageRow | null): NewMessageRow[] | null {
  if (!answered || answered.role !== 'user' || row.role !== 'bot') return null;
  const parsed = SwipesSchema.safeParse(value);
  if (!parsed.success || parsed.data.swipe_id >= parsed.data.swipes.length) return null;
  const { swipes, swipe_id: shown, swipe_info: info } = parsed.data;
  const rows: NewMessageRow[] = [];
  swipes.forEach((swipe, i) => {
    const text = i === shown ? row.text! : cleanFreeText(swipe);
    if ((!text && i !== shown) || (rows.length >= IMPORT_MAX_SWIPES - 1 && i !== shown)) return;
    const sent = SwipeInfoSchema.safeParse(info?.[i]);
    const at = i === shown ? row.createdAt! : dateOf(sent.success ? sent.data.send_date : undefined, row.createdAt!);
    rows.push({
      ...row,
      id: randomUUID(),
      text,
      tokens: estimateTokens(text),
      replyTo: answered.id,
      altIndex: rows.length,
      selected: i === shown,
      createdAt: at,
      updatedAt: at,
    });
  });
  return rows.length > 1 ? rows : null;
}

/** A message line's rows (one, or a reply's alternatives); null for a system line (counted as skipped). */
function messageRows(
  value: unknown,
  number: number,
  owner: { chatId: string; userId: string },
  previous: NewMessageRow | null,
  now: Date,
  counts: { imported: number; skipped: number },
): NewMessageRow[] | null {
  const parsed = LineSchema.safeParse(value);
  if (!parsed.success) throw badLine(number, parsed.error.issues[0]?.path.join('.') || 'no message');
  const line = parsed.data;
  if (line.is_system) {
    counts.skipped += 1;
    return null;
  }
  if (counts.imported >= IMPORT_MAX_MESSAGES)
    throw new AppError('import_too_many_messages', {
      status: 422,
      detail: `A chat file may hold at most ${IMPORT_MAX_MESSAGES} messages`,
    });
  // Stored as free text (docs/ARCHITECTURE.md "Conventions"): PostgreSQL refuses NUL and lone
  // surrogates, so NUL and the other controls but tab and line breaks go, a lone surrogate is U+FFFD.
  const mes = cleanFreeText(line.mes);
  const at = dateOf(line.send_date, previous?.createdAt ?? now);
  counts.imported += 1;
  const row: NewMessageRow = {
    id: randomUUID(),
    chatId: owner.chatId,
    userId: owner.userId,
    role: line.is_user ? 'user' : 'bot',
    kind: MessageKind.Text,
    text: mes,
    state: 'done',
    tokens: estimateTokens(mes),
    createdAt: at,
    updatedAt: at,
  };
  return alternativeRows(value, row, previous) ?? [row];
}

/**
 * The file's lines as message rows, in batches of `IMPORT_BATCH`. The header (the first line)
 * goes to `onHeader` before any batch, which may refuse it by throwing. System lines
 * (`is_system`: SillyTavern's own notices) are counted in `skipped` and not imported; the
 * selected swipe (`mes`) is the message shown, and a reply's other swipes are its alternatives
 * when it answers a user line (`alternativeRows`). Texts are kept as written.
 */
export async function* importBatches(
  input: NodeJS.ReadableStream,
  owner: { chatId: string; userId: string; now: Date },
  onHeader: (header: ImportHeader) => void,
  counts: { imported: number; skipped: number },
): AsyncGenerator<NewMessageRow[]> {
  const lines = readline.createInterface({ input, crlfDelay: Infinity });
  let number = 0;
  let header = false;
  let batch: NewMessageRow[] = [];
  let previous: NewMessageRow | null = null;
  try {
    for await (const raw of lines) {
      number += 1;
      const text = raw.trim();
      if (!text) continue;
      const value = parse(number === 1 ? text.replace(/^\uFEFF/, '') : text, number);
      if (!header) {
        const parsed = HeaderSchema.safeParse(value);
        if (!parsed.success || 'mes' in (parsed.data as object)) throw badLine(number, 'the first line is no header');
        header = true;
        onHeader({ characterName: parsed.data.character_name?.trim() || null });
        continue;
      }
      const rows = messageRows(value, number, owner, previous, owner.now, counts);
      if (!rows) continue;
      previous = rows.find((row) => row.selected !== false)!;
      batch.push(...rows);
      if (batch.length >= IMPORT_BATCH) {
        yield batch;
        batch = [];
      }
    }
  } finally {
    lines.close();
    // A refused file is not read further.
    (input as NodeJS.ReadableStream & { destroy?: () => void }).destroy?.();
  }
  if (!header || counts.imported === 0)
    throw new AppError('import_empty', { status: 422, detail: 'The file holds no message' });
  if (batch.length > 0) yield batch;
}
