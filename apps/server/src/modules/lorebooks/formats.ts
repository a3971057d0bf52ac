/**
 * Lorebook files (docs/lorebooks.md "Import and export"): SillyTavern World Info JSON
 * (`{ entries: { "0": { uid, key, keysecondary, … } } }`) and a Character Card's
 * `character_book` (V2/V3: `{ entries: [{ keys, secondary_keys, insertion_order, … }] }`), read
 * into entry values and written back. Fields this server does not model are kept in
 * `extensions` and written out again, so a file survives import → export → import.
 */
import {
  cleanJsonValue,
  LORE_ENTRIES_PER_BOOK_MAX,
  LORE_SCAN_DEPTH_DEFAULT,
  LORE_SCAN_DEPTH_MAX,
  LORE_TOKEN_BUDGET_MAX,
  LOREBOOK_DESCRIPTION_MAX,
  LOREBOOK_NAME_MAX,
  LoreEntryBodySchema,
  type LorePosition,
  type SelectiveLogic,
} from '@reverie/shared';
import { AppError } from '../../lib/errors.js';
import { regexKeyProblem, type LoreEntryFields } from './lore-engine.js';

/** An entry as stored (the repository's columns). */
export interface EntryValues extends LoreEntryFields {
  extensions: Record<string, unknown>;
}

/** A book's fields as a file gives them. */
export interface BookFile {
  name: string | null;
  description: string;
  scanDepth: number;
  tokenBudget: number;
  extensions: Record<string, unknown>;
  entries: EntryValues[];
  /** Entries of the file left out because they have no text. */
  skipped: number;
}

/** SillyTavern's numeric positions, in order (5 and above — example messages, outlets — read as after the card). */
const ST_POSITIONS: LorePosition[] = ['before_char', 'after_char', 'an_top', 'an_bottom', 'at_depth'];
/** SillyTavern's `selectiveLogic` numbers. */
const ST_LOGIC: SelectiveLogic[] = ['and_any', 'not_all', 'not_any', 'and_all'];
/**
 * The highest `uid` a file may keep (the column is a 32-bit integer, and entries added later
 * take the next numbers): a file's uid above it, below 0 or not whole is numbered anew.
 */
export const LORE_UID_MAX = 1_000_000_000;

const isRecord = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);
/** A list of keys; a single string (a hand-written or converted file: `"lamp, lantern"`) split at its commas. */
const strings = (value: unknown): string[] =>
  (Array.isArray(value) ? value : typeof value === 'string' ? value.split(',') : [])
    .filter((v): v is string => typeof v === 'string' && v.trim() !== '')
    .map((v) => (Array.isArray(value) ? v : v.trim()));
const finite = (value: unknown, fallback: number): number =>
  typeof value === 'number' && Number.isFinite(value) ? value : fallback;
const text = (value: unknown): string => (typeof value === 'string' ? value : '');
const clamp = (value: number, min: number, max: number) => Math.min(max, Math.max(min, Math.round(value)));
const omit = (record: Record<string, unknown>, keys: readonly string[]) =>
  Object.fromEntries(Object.entries(record).filter(([key]) => !keys.includes(key)));

/** The World Info entry fields modelled here (the rest goes to `extensions`). */
const WI_FIELDS = [
  'uid',
  'key',
  'keysecondary',
  'content',
  'comment',
  'constant',
  'order',
  'position',
  'depth',
  'probability',
  'useProbability',
  'selective',
  'selectiveLogic',
  'disable',
  'caseSensitive',
  'use_regex',
] as const;
/** The card book entry fields modelled here (top level), and those read from its `extensions`. */
const CARD_FIELDS = [
  'id',
  'keys',
  'secondary_keys',
  'content',
  'comment',
  'constant',
  'insertion_order',
  'position',
  'enabled',
  'selective',
  'case_sensitive',
  'use_regex',
] as const;
const CARD_EXTENSION_FIELDS = ['position', 'depth', 'probability', 'useProbability', 'selectiveLogic'] as const;

function positionOf(value: unknown): LorePosition {
  if (typeof value === 'number') return ST_POSITIONS[value] ?? 'after_char';
  return value === 'before_char' ? 'before_char' : 'after_char';
}

/** SillyTavern rolls an entry's `probability` only with `useProbability: true`. */
function probabilityOf(probability: unknown, useProbability: unknown): number {
  return useProbability === true ? clamp(finite(probability, 100), 0, 100) : 100;
}

/** A World Info entry's values. */
function fromWorldInfo(raw: Record<string, unknown>, index: number): EntryValues {
  const selective = raw.selective !== false;
  return {
    uid: Math.trunc(finite(raw.uid, index)),
    keys: strings(raw.key),
    secondaryKeys: selective ? strings(raw.keysecondary) : [],
    selectiveLogic: ST_LOGIC[finite(raw.selectiveLogic, 0)] ?? 'and_any',
    content: text(raw.content),
    comment: text(raw.comment),
    constant: raw.constant === true,
    enabled: raw.disable !== true,
    insertionOrder: Math.trunc(finite(raw.order, 100)),
    position: positionOf(raw.position),
    depth: Math.trunc(finite(raw.depth, 4)),
    probability: probabilityOf(raw.probability, raw.useProbability),
    caseSensitive: raw.caseSensitive === true,
    useRegex: raw.use_regex === true,
    extensions: omit(raw, WI_FIELDS),
  };
}

/** A card book entry's values (SillyTavern keeps its own fields under the entry's `extensions`). */
function fromCardEntry(raw: Record<string, unknown>, index: number): EntryValues {
  const ext = isRecord(raw.extensions) ? raw.extensions : {};
  const rest = omit(omit(raw, CARD_FIELDS), ['extensions']);
  const nested = omit(ext, CARD_EXTENSION_FIELDS);
  return {
    uid: Math.trunc(finite(raw.id, index)),
    keys: strings(raw.keys),
    secondaryKeys: raw.selective === true ? strings(raw.secondary_keys) : [],
    selectiveLogic: ST_LOGIC[finite(ext.selectiveLogic, 0)] ?? 'and_any',
    content: text(raw.content),
    comment: text(raw.comment),
    constant: raw.constant === true,
    enabled: raw.enabled !== false,
    insertionOrder: Math.trunc(finite(raw.insertion_order, 100)),
    position: positionOf(ext.position ?? raw.position),
    depth: Math.trunc(finite(ext.depth, 4)),
    probability: probabilityOf(ext.probability ?? raw.probability, ext.useProbability ?? raw.useProbability),
    caseSensitive: raw.case_sensitive === true,
    useRegex: raw.use_regex === true,
    extensions: { ...rest, ...(Object.keys(nested).length ? { extensions: nested } : {}) },
  };
}

/** Makes the entries' uids unique and within 0…LORE_UID_MAX (a duplicate or one outside: the next free one). */
export function uniqueUids(entries: EntryValues[]): EntryValues[] {
  const fits = (uid: number) => Number.isSafeInteger(uid) && uid >= 0 && uid <= LORE_UID_MAX;
  const seen = new Set<number>();
  let next = Math.max(-1, ...entries.map((e) => e.uid).filter(fits)) + 1;
  for (const entry of entries) {
    if (seen.has(entry.uid) || !fits(entry.uid)) entry.uid = next++;
    seen.add(entry.uid);
  }
  return entries;
}

/**
 * Reads a World Info file or a card's `character_book` (a whole card too: its book), cleaned
 * and checked against the entry rules; entries without content are skipped (counted in
 * `skipped`), uids made unique.
 * Throws 400 `lorebook_import_invalid` for anything else, `validation_error` with
 * `entries.<n>.<field>` messages for entries that break a rule.
 */
export function readBookFile(data: unknown): BookFile {
  let book = cleanJsonValue(data);
  if (isRecord(book) && isRecord(book.data) && isRecord(book.data.character_book)) book = book.data.character_book;
  if (!isRecord(book)) throw new AppError('lorebook_import_invalid');
  const card = Array.isArray(book.entries);
  const rawEntries = card ? (book.entries as unknown[]) : isRecord(book.entries) ? Object.values(book.entries) : null;
  if (!rawEntries) throw new AppError('lorebook_import_invalid');
  // Each entry with its place in the file: a field message names the file's entry (`entries.<n>`).
  const read = rawEntries
    .map((raw, index) =>
      isRecord(raw) ? { index, entry: card ? fromCardEntry(raw, index) : fromWorldInfo(raw, index) } : null,
    )
    .filter((item): item is { index: number; entry: EntryValues } => item !== null);
  // An entry without text would inject nothing: left out and counted (the import's answer says how many).
  const written = read.filter(({ entry }) => entry.content.trim() !== '');
  const skipped = read.length - written.length;
  const entries = written.map(({ entry }) => entry);
  if (entries.length > LORE_ENTRIES_PER_BOOK_MAX) throw new AppError('lorebook_full', { status: 409 });
  checkEntries(
    entries,
    written.map(({ index }) => index),
  );
  uniqueUids(entries);
  const name = text(book.name).trim().slice(0, LOREBOOK_NAME_MAX);
  return {
    name: name || null,
    description: text(book.description).trim().slice(0, LOREBOOK_DESCRIPTION_MAX),
    scanDepth: clamp(finite(book.scan_depth, LORE_SCAN_DEPTH_DEFAULT), 1, LORE_SCAN_DEPTH_MAX),
    tokenBudget: clamp(finite(book.token_budget, 0), 0, LORE_TOKEN_BUDGET_MAX),
    extensions: card ? omit(book, ['name', 'description', 'scan_depth', 'token_budget', 'entries']) : {},
    entries,
    skipped,
  };
}

/** Entry values as the API writes them (the checks of `LoreEntryBodySchema`). */
export const entryBody = (entry: EntryValues) => ({
  keys: entry.keys,
  secondary_keys: entry.secondaryKeys,
  selective_logic: entry.selectiveLogic,
  content: entry.content,
  comment: entry.comment,
  constant: entry.constant,
  enabled: entry.enabled,
  order: entry.insertionOrder,
  position: entry.position,
  depth: entry.depth,
  probability: entry.probability,
  case_sensitive: entry.caseSensitive,
  use_regex: entry.useRegex,
});

/** The regular-expression keys' problems of one entry, as field messages. */
export function regexProblems(
  keys: { keys: string[]; secondary_keys: string[] },
  useRegex: boolean,
  prefix = '',
): Record<string, string[]> {
  const errors: Record<string, string[]> = {};
  for (const field of ['keys', 'secondary_keys'] as const) {
    keys[field].forEach((key, i) => {
      const problem = regexKeyProblem(key, useRegex);
      if (problem) errors[`${prefix}${field}.${i}`] = [problem];
    });
  }
  return errors;
}

/** Checks the entries; `places[i]` is entry i's place in the file (what its messages name). */
function checkEntries(entries: EntryValues[], places: number[]): void {
  const errors: Record<string, string[]> = {};
  entries.forEach((entry, i) => {
    const index = places[i] ?? i;
    const body = entryBody(entry);
    const parsed = LoreEntryBodySchema.safeParse({
      ...body,
      order: clamp(body.order, -100_000, 100_000),
      depth: clamp(body.depth, 0, 100),
    });
    if (!parsed.success)
      for (const issue of parsed.error.issues) {
        const key = ['entries', index, ...issue.path].join('.');
        (errors[key] ??= []).push(issue.message.includes(' ') ? 'invalid_value' : issue.message);
      }
    Object.assign(errors, regexProblems(body, entry.useRegex, `entries.${index}.`));
    entry.insertionOrder = clamp(entry.insertionOrder, -100_000, 100_000);
    entry.depth = clamp(entry.depth, 0, 100);
  });
  if (Object.keys(errors).length) throw new AppError('validation_error', { errors });
}

/** A book as SillyTavern World Info JSON. */
export function toWorldInfo(entries: EntryValues[]): { entries: Record<string, Record<string, unknown>> } {
  const out: Record<string, Record<string, unknown>> = {};
  for (const entry of entries) {
    out[String(entry.uid)] = {
      ...entry.extensions,
      uid: entry.uid,
      key: entry.keys,
      keysecondary: entry.secondaryKeys,
      comment: entry.comment,
      content: entry.content,
      constant: entry.constant,
      selective: entry.secondaryKeys.length > 0,
      selectiveLogic: ST_LOGIC.indexOf(entry.selectiveLogic),
      order: entry.insertionOrder,
      position: ST_POSITIONS.indexOf(entry.position),
      depth: entry.depth,
      disable: !entry.enabled,
      probability: entry.probability,
      useProbability: true,
      caseSensitive: entry.caseSensitive,
      ...(entry.useRegex ? { use_regex: true } : {}),
    };
  }
  return { entries: out };
}

/** A book as a Character Card's `character_book` (V2/V3, with SillyTavern's entry extensions). */
export function toCharacterBook(
  book: {
    name: string;
    description: string;
    scanDepth: number;
    tokenBudget: number;
    extensions: Record<string, unknown>;
  },
  entries: EntryValues[],
): Record<string, unknown> {
  return {
    ...book.extensions,
    name: book.name,
    description: book.description,
    scan_depth: book.scanDepth,
    token_budget: book.tokenBudget,
    extensions: isRecord(book.extensions.extensions) ? book.extensions.extensions : {},
    entries: entries.map((entry) => {
      const nested = isRecord(entry.extensions.extensions) ? entry.extensions.extensions : {};
      return {
        ...omit(entry.extensions, ['extensions']),
        id: entry.uid,
        keys: entry.keys,
        secondary_keys: entry.secondaryKeys,
        selective: entry.secondaryKeys.length > 0,
        content: entry.content,
        comment: entry.comment,
        constant: entry.constant,
        enabled: entry.enabled,
        insertion_order: entry.insertionOrder,
        case_sensitive: entry.caseSensitive,
        use_regex: entry.useRegex,
        position: entry.position === 'before_char' ? 'before_char' : 'after_char',
        extensions: {
          ...nested,
          position: ST_POSITIONS.indexOf(entry.position),
          depth: entry.depth,
          probability: entry.probability,
          useProbability: true,
          selectiveLogic: ST_LOGIC.indexOf(entry.selectiveLogic),
        },
      };
    }),
  };
}

/**
 * A card's stored `character_book` read for the prompt as it was before any edit (lenient:
 * nothing is refused, entries without content are skipped).
 */
export function readCardBookLeniently(book: unknown): {
  scanDepth: number;
  tokenBudget: number;
  entries: EntryValues[];
} {
  if (!isRecord(book)) return { scanDepth: LORE_SCAN_DEPTH_DEFAULT, tokenBudget: 0, entries: [] };
  const card = Array.isArray(book.entries);
  const raw = card ? (book.entries as unknown[]) : isRecord(book.entries) ? Object.values(book.entries) : [];
  return {
    scanDepth: Math.max(1, Math.floor(finite(book.scan_depth, LORE_SCAN_DEPTH_DEFAULT))),
    tokenBudget: Math.max(0, finite(book.token_budget, 0)),
    entries: raw
      .map((value, index) =>
        isRecord(value) ? (card ? fromCardEntry(value, index) : fromWorldInfo(value, index)) : null,
      )
      .filter((e): e is EntryValues => e !== null && e.content.trim() !== ''),
  };
}
