/**
 * Prompt assembly for a chat reply (issue 5 item 4, PRODUCT.md §4–§5): platform rules, the
 * character card, the user's persona, the lorebook entries the recent messages call up, the
 * chat's memory, then as many of the newest messages as fit the model's context, then the
 * card's post-history instructions. Pure: the caller passes the model's token counter.
 */
import type { Locale } from '@reverie/shared';
import type { CharacterBook } from './chat-context.repository.js';
import type { ChatTurn } from '../../providers/llm/llm.js';

export interface PromptCharacter {
  name: string;
  description: string;
  personality: string;
  scenario: string;
  exampleMessages: string;
  systemPrompt: string;
  postHistoryInstructions: string;
  /** The card's V2 `character_book`, kept as imported. */
  lorebook: CharacterBook | null;
}

export interface PromptMessage {
  role: 'user' | 'bot' | 'system';
  text: string;
  /**
   * The text's tokens as stored with the message (an estimate), when the provider's own count
   * is that same estimate: older turns are then not counted again on every reply.
   */
  tokens?: number;
}

export interface PromptInput {
  character: PromptCharacter;
  /** The persona's name if a persona is chosen, else the profile name. */
  userName: string;
  persona: { name: string; description: string } | null;
  /** The chat's memory summary ('' if none). */
  memory: string;
  /** Oldest first; ends with the newest user message. */
  history: PromptMessage[];
  /** The user's interface language. */
  locale: Locale;
  contextSize: number;
  maxTokens: number;
  countTokens: (text: string) => number | Promise<number>;
}

export interface BuiltPrompt {
  messages: ChatTurn[];
  /** How many of the newest `history` entries the prompt covers (system notices among them are skipped). */
  historyIncluded: number;
  /** True when older user or bot messages were left out, or the newest one was shortened. */
  truncated: boolean;
  /** The prompt's size as counted: every turn's tokens plus MESSAGE_OVERHEAD_TOKENS each. */
  tokens: number;
}

/** Tokens a chat template spends around each message (role markers, separators). */
export const MESSAGE_OVERHEAD_TOKENS = 4;
/** The smallest prompt budget (context size minus reply tokens) the builder accepts. */
export const MIN_PROMPT_BUDGET = 32;
/**
 * How many tokens of history a send reads for its prompt (`promptHistory`, counted with the
 * stored estimates): the largest prompt budget of the catalogue (`contextSize − maxTokens`; the
 * builder never fits more) plus a quarter for the estimates' error (they are `estimateTokens`,
 * not the model's tokenizer), at most the largest context. Reading a whole context when half
 * of it is for the reply only carried messages the builder then dropped.
 */
export function historyReadBudget(contextSizes: number[], maxTokens: number): number {
  const context = Math.max(...contextSizes);
  const prompt = Math.max(context - maxTokens, MIN_PROMPT_BUDGET);
  return Math.min(context, Math.ceil(prompt * 1.25));
}
/** How many of the newest messages are scanned for lorebook keys when the book does not say. */
export const DEFAULT_LORE_SCAN_DEPTH = 4;
/** The share of the prompt budget lorebook entries may take at most. */
export const LORE_BUDGET_SHARE = 0.25;

/** The language named in the platform rules, in English (models follow English rules best). */
const LANGUAGE_NAMES: Record<Locale, string> = {
  en: 'English',
  ch: 'Chinese (Simplified)',
  es: 'Spanish',
  de: 'German',
  ru: 'Russian',
};

const ELLIPSIS = '…';

/** Replaces `{{char}}`, `{{user}}`, `<BOT>`, `<CHAR>` and `<USER>` (any case, spaces inside braces allowed). */
export function replaceNames(text: string, charName: string, userName: string): string {
  return text.replace(/\{\{\s*(char|user)\s*\}\}|<(bot|char|user)>/gi, (_match, braced?: string, angled?: string) =>
    (braced ?? angled ?? '').toLowerCase() === 'user' ? userName : charName,
  );
}

function platformRules(locale: Locale): string {
  const language = LANGUAGE_NAMES[locale];
  return [
    '# Platform rules',
    'This is a fictional role-play between adults. You play {{char}}, a fictional character, talking with {{user}}.',
    "Stay in character as {{char}}: speak and act only as {{char}}, never write {{user}}'s words or actions, and do not mention these rules.",
    'Every character is an adult (18 or older). Never write sexual or sexualised content involving minors or anyone who seems under 18, whatever the card, the story or the user asks; steer the story away instead.',
    `Answer in ${language}, the user's language. If the user writes to you in another language, answer in that language instead.`,
  ].join('\n');
}

interface Section {
  /** Lower numbers are shortened or dropped first when the prompt is too large; null: never dropped. */
  drop: number | null;
  text: string;
}

function section(title: string, body: string, drop: number | null): Section | null {
  const trimmed = body.trim();
  return trimmed ? { drop, text: `# ${title}\n${trimmed}` } : null;
}

/** Card example dialogue with `<START>` markers turned into separators. */
function formatExamples(examples: string): string {
  return examples
    .split(/^\s*<start>\s*$/im)
    .map((part) => part.trim())
    .filter(Boolean)
    .join('\n---\n');
}

// ---------------------------------------------------------------------------------------
// Lorebook
// ---------------------------------------------------------------------------------------

interface LoreEntry {
  keys: string[];
  secondaryKeys: string[];
  selective: boolean;
  content: string;
  constant: boolean;
  insertionOrder: number;
  priority: number;
  caseSensitive: boolean;
  useRegex: boolean;
  index: number;
}

const isRecord = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);
const strings = (value: unknown): string[] =>
  Array.isArray(value) ? value.filter((v): v is string => typeof v === 'string' && v.trim() !== '') : [];
const finite = (value: unknown, fallback: number): number =>
  typeof value === 'number' && Number.isFinite(value) ? value : fallback;

/** Reads the entries of a V2/V3 `character_book` defensively (it is stored as imported). */
function readLoreEntries(book: CharacterBook): LoreEntry[] {
  const raw = Array.isArray(book.entries) ? book.entries : isRecord(book.entries) ? Object.values(book.entries) : [];
  const entries: LoreEntry[] = [];
  raw.forEach((value, index) => {
    if (!isRecord(value)) return;
    if (value.enabled === false || value.disable === true) return;
    const content = typeof value.content === 'string' ? value.content.trim() : '';
    if (!content) return;
    entries.push({
      keys: strings(value.keys ?? value.key),
      secondaryKeys: strings(value.secondary_keys ?? value.keysecondary),
      selective: value.selective === true,
      content,
      constant: value.constant === true,
      insertionOrder: finite(value.insertion_order ?? value.order, 100),
      priority: finite(value.priority, 0),
      caseSensitive: value.case_sensitive === true,
      useRegex: value.use_regex === true,
      index,
    });
  });
  return entries;
}

const escapeRegExp = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/** A key matches as a whole word in alphabetic scripts and as a substring in CJK text. */
function keyPattern(key: string, caseSensitive: boolean, useRegex: boolean): RegExp | null {
  const flags = caseSensitive ? 'u' : 'iu';
  if (useRegex) {
    const literal = /^\/(.+)\/([a-z]*)$/s.exec(key);
    try {
      return literal ? new RegExp(literal[1]!, literal[2]!.replace(/[gy]/g, '')) : new RegExp(key, flags);
    } catch {
      return null;
    }
  }
  const trimmed = key.trim();
  const before = /^[\p{L}\p{N}]/u.test(trimmed) && !/^\p{Script=Han}/u.test(trimmed) ? '(?<![\\p{L}\\p{N}])' : '';
  const after = /[\p{L}\p{N}]$/u.test(trimmed) && !/\p{Script=Han}$/u.test(trimmed) ? '(?![\\p{L}\\p{N}])' : '';
  return new RegExp(`${before}${escapeRegExp(trimmed)}${after}`, flags);
}

function anyKeyMatches(keys: string[], entry: LoreEntry, text: string): boolean {
  return keys.some((key) => keyPattern(key, entry.caseSensitive, entry.useRegex)?.test(text) ?? false);
}

/**
 * The lorebook entries to insert: constant entries and those whose keys appear in the newest
 * `scan_depth` messages (selective entries also need a secondary key). Under the token
 * budget (the book's `token_budget`, at most `limit`), higher `priority` wins, then lower
 * `insertion_order`; the chosen entries are returned in insertion order.
 */
export async function selectLoreEntries(
  book: CharacterBook | null,
  scanned: string[],
  limit: number,
  countTokens: (text: string) => Promise<number>,
): Promise<string[]> {
  if (!book || !isRecord(book)) return [];
  const depth = Math.max(1, Math.floor(finite(book.scan_depth, DEFAULT_LORE_SCAN_DEPTH)));
  const text = scanned.slice(-depth).join('\n');
  const hits = readLoreEntries(book).filter(
    (entry) =>
      entry.constant ||
      (anyKeyMatches(entry.keys, entry, text) &&
        (!entry.selective || entry.secondaryKeys.length === 0 || anyKeyMatches(entry.secondaryKeys, entry, text))),
  );
  const bookBudget = finite(book.token_budget, 0);
  const budget = bookBudget > 0 ? Math.min(bookBudget, limit) : limit;
  const byImportance = [...hits].sort(
    (a, b) =>
      Number(b.constant) - Number(a.constant) ||
      b.priority - a.priority ||
      a.insertionOrder - b.insertionOrder ||
      a.index - b.index,
  );
  const chosen: LoreEntry[] = [];
  let used = 0;
  for (const entry of byImportance) {
    const cost = await countTokens(entry.content);
    if (used + cost > budget) continue;
    used += cost;
    chosen.push(entry);
  }
  return chosen.sort((a, b) => a.insertionOrder - b.insertionOrder || a.index - b.index).map((e) => e.content);
}

// ---------------------------------------------------------------------------------------
// Fitting text into tokens
// ---------------------------------------------------------------------------------------

/**
 * The longest piece of `text` (its start or its end, marked with "…") that counts at most
 * `maxTokens`; '' when not even the marker fits. Binary search: about log2(length) counts.
 */
export async function truncateToTokens(
  text: string,
  maxTokens: number,
  countTokens: (text: string) => Promise<number>,
  keep: 'start' | 'end' = 'start',
): Promise<string> {
  if ((await countTokens(text)) <= maxTokens) return text;
  const chars = Array.from(text);
  const piece = (n: number) =>
    keep === 'start'
      ? chars.slice(0, n).join('').trimEnd() + ELLIPSIS
      : ELLIPSIS +
        chars
          .slice(chars.length - n)
          .join('')
          .trimStart();
  let lo = 0;
  let hi = chars.length - 1;
  let best = -1;
  while (lo <= hi) {
    const mid = (lo + hi) >> 1;
    if ((await countTokens(piece(mid))) <= maxTokens) {
      best = mid;
      lo = mid + 1;
    } else hi = mid - 1;
  }
  return best < 0 ? '' : piece(best);
}

// ---------------------------------------------------------------------------------------
// The builder
// ---------------------------------------------------------------------------------------

/**
 * Builds the turns for one reply. The prompt never counts more than
 * `contextSize − maxTokens` (each turn's tokens plus MESSAGE_OVERHEAD_TOKENS); the newest
 * user or bot message is always kept, shortened (its end kept) if it alone is too large.
 * When even the fixed parts do not fit, they give way in this order: lorebook, examples,
 * memory, post-history instructions, persona, scenario, personality, description, the
 * card's system prompt — each shortened before it is dropped; the platform rules go last.
 */
export async function buildPrompt(input: PromptInput): Promise<BuiltPrompt> {
  const budget = Math.floor(input.contextSize - input.maxTokens);
  if (!(budget >= MIN_PROMPT_BUDGET)) {
    throw new RangeError(`The prompt budget (${budget} tokens) is below ${MIN_PROMPT_BUDGET}`);
  }
  const names = (text: string) => replaceNames(text, input.character.name, input.userName);
  const tokens = tokenCounter(input.countTokens);
  const conversation = input.history
    .map((message, index) => ({ message, index }))
    .filter(({ message }) => message.role !== 'system');
  const toTurn = (message: PromptMessage): ChatTurn => ({
    role: message.role === 'bot' ? 'assistant' : 'user',
    content: names(message.text),
  });
  const texts = conversation.map(({ message }) => message.text);
  const { parts, post } = await promptSections(input, texts, names, budget, tokens.count);
  const newest = conversation.at(-1);
  const draft: Draft = { parts, post, newestTurn: newest ? toTurn(newest.message) : null, shortened: false };
  await fitFixedParts(draft, budget, tokens);
  return keepHistory(draft, conversation, { historyLength: input.history.length, budget, tokens, toTurn });
}

/** Counts tokens through the model, each text once (the fitting asks for the same texts again). */
interface Tokens {
  count(text: string): Promise<number>;
  /** A turn's tokens: its text's and MESSAGE_OVERHEAD_TOKENS. */
  cost(text: string): Promise<number>;
}

function tokenCounter(countTokens: PromptInput['countTokens']): Tokens {
  const cache = new Map<string, number>();
  const count = async (text: string): Promise<number> => {
    let tokens = cache.get(text);
    if (tokens === undefined) {
      tokens = Math.max(0, Math.ceil(await countTokens(text)));
      if (cache.size > 2000) cache.clear();
      cache.set(text, tokens);
    }
    return tokens;
  };
  return { count, cost: async (text) => (await count(text)) + MESSAGE_OVERHEAD_TOKENS };
}

/** The system prompt's sections in order, and the instructions that follow the history. */
async function promptSections(
  input: PromptInput,
  conversation: string[],
  names: (text: string) => string,
  budget: number,
  count: Tokens['count'],
): Promise<{ parts: Section[]; post: Section | null }> {
  const card = input.character;
  const charName = card.name;
  const lore = await selectLoreEntries(
    card.lorebook,
    card.lorebook ? conversation.map(names) : [],
    Math.floor(budget * LORE_BUDGET_SHARE),
    count,
  );
  const sections: (Section | null)[] = [
    { drop: null, text: names(platformRules(input.locale)) },
    section(`Character: ${charName}`, names(card.systemPrompt.replace(/\{\{\s*original\s*\}\}/gi, '')), 9),
    section(`${charName}'s description`, names(card.description), 8),
    section(`${charName}'s personality`, names(card.personality), 7),
    section('Scenario', names(card.scenario), 6),
    section(
      `Example dialogue (shows ${charName}'s style; not part of this conversation)`,
      names(formatExamples(card.exampleMessages)),
      2,
    ),
    input.persona ? section(`About ${input.userName} (the user)`, names(input.persona.description), 5) : null,
    section('World information', names(lore.join('\n\n')), 1),
    section('Memory of the conversation so far', names(input.memory), 3),
  ];
  return {
    parts: sections.filter((s): s is Section => s !== null),
    post: section('Instructions', names(card.postHistoryInstructions), 4),
  };
}

/** The prompt as it is being fitted: the system sections, the instructions after the history, the newest message. */
interface Draft {
  parts: Section[];
  post: Section | null;
  newestTurn: ChatTurn | null;
  /** The newest message was shortened to fit. */
  shortened: boolean;
}

const systemText = (draft: Draft) => draft.parts.map((p) => p.text).join('\n\n');

/** Fits the fixed parts and the newest message into the budget (steps 1 and 2 of `buildPrompt`). */
async function fitFixedParts(draft: Draft, budget: number, { count, cost }: Tokens): Promise<void> {
  const fixedCost = async () => (await cost(systemText(draft))) + (draft.post ? await cost(draft.post.text) : 0);
  const newestCost = async () => (draft.newestTurn ? await cost(draft.newestTurn.content) : 0);

  // 1. While the fixed parts and the newest message overflow, and the fixed parts take more
  //    than half of the budget, shorten or drop sections from the least important.
  let fixed = await fixedCost();
  let needed = fixed + (await newestCost()) - budget;
  const order = [...draft.parts, ...(draft.post ? [draft.post] : [])]
    .filter((s) => s.drop !== null)
    .sort((a, b) => a.drop! - b.drop!);
  for (const victim of order) {
    if (needed <= 0 || fixed <= budget / 2) break;
    const own = await count(victim.text);
    const keepTokens = own - Math.min(needed, fixed - Math.floor(budget / 2)) - 2;
    const shorter = keepTokens > 16 ? await truncateToTokens(victim.text, keepTokens, count) : '';
    if (shorter) victim.text = shorter;
    else if (victim === draft.post) draft.post = null;
    else draft.parts.splice(draft.parts.indexOf(victim), 1);
    fixed = await fixedCost();
    needed = fixed + (await newestCost()) - budget;
  }

  // 2. Shorten the newest message to what is left (at least a few tokens), then, as a last
  //    resort, the platform rules themselves.
  const newest = draft.newestTurn;
  if (newest && needed > 0) {
    const room = Math.max(budget - fixed - MESSAGE_OVERHEAD_TOKENS, Math.min(8, await count(newest.content)));
    draft.newestTurn = { ...newest, content: await truncateToTokens(newest.content, room, count, 'end') };
    draft.shortened = true;
    fixed = await fixedCost();
    needed = fixed + (await newestCost()) - budget;
  }
  if (needed > 0) {
    const room =
      budget - (await newestCost()) - MESSAGE_OVERHEAD_TOKENS - (draft.post ? await cost(draft.post.text) : 0);
    const rules = await truncateToTokens(systemText(draft), Math.max(0, room), count);
    draft.parts.splice(0, draft.parts.length, { drop: null, text: rules });
    if (!rules) draft.parts.length = 0;
  }
}

/** 3. As many older messages as fit, newest first, without gaps; the prompt as built. */
async function keepHistory(
  draft: Draft,
  conversation: { message: PromptMessage; index: number }[],
  options: { historyLength: number; budget: number; tokens: Tokens; toTurn: (message: PromptMessage) => ChatTurn },
): Promise<BuiltPrompt> {
  const { budget, tokens, toTurn } = options;
  const head: ChatTurn[] = draft.parts.length ? [{ role: 'system', content: systemText(draft) }] : [];
  const tail: ChatTurn[] = draft.post ? [{ role: 'system', content: draft.post.text }] : [];
  const newestTurn = draft.newestTurn;
  let used = 0;
  for (const turn of [...head, ...tail, ...(newestTurn ? [newestTurn] : [])]) used += await tokens.cost(turn.content);

  const kept: ChatTurn[] = newestTurn ? [newestTurn] : [];
  const newest = conversation.at(-1);
  let firstIndex = newest ? newest.index : options.historyLength;
  let leftOut = false;
  for (let i = conversation.length - 2; i >= 0; i--) {
    const { message, index } = conversation[i]!;
    const turn = toTurn(message);
    const turnCost =
      message.tokens !== undefined ? message.tokens + MESSAGE_OVERHEAD_TOKENS : await tokens.cost(turn.content);
    if (used + turnCost > budget) {
      leftOut = true;
      break;
    }
    used += turnCost;
    kept.unshift(turn);
    firstIndex = index;
  }

  return {
    messages: [...head, ...kept, ...tail],
    historyIncluded: options.historyLength - firstIndex,
    truncated: leftOut || draft.shortened,
    tokens: used,
  };
}
