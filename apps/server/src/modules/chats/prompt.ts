/**
 * Prompt assembly for a chat reply (issue 5 item 4, PRODUCT.md §4–§5): platform rules, the
 * character card, the user's persona, the lorebook entries the recent messages call up, the
 * chat's memory, then as many of the newest messages as fit the model's context, then the
 * card's post-history instructions. Pure: the caller passes the model's token counter.
 */
import type { Locale } from '@reverie/shared';
import type { CharacterBook } from './chat-context.repository.js';
import { activateLore, compileCardBook, type CompiledBook, type FiredEntry } from '../lorebooks/index.js';
import type { ChatTurn } from '../../providers/llm/llm.js';
import { LANGUAGE_NAMES } from '../../lib/i18n.js';
import { mulberry32 } from '../../lib/seeded-random.mjs';

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
  /**
   * A group scene (docs/groups.md): who said it. Another character's line goes in as a user
   * turn with her name; a person's line carries their name; the character's own lines stay hers.
   */
  speaker?: { name: string; self: boolean } | null;
}

/** A group scene's setting and who is in it (docs/groups.md "Each character is herself"). */
export interface PromptScene {
  place: string;
  situation: string;
  /** The other characters present. */
  characters: string[];
  /** The people present (persona or display names). */
  people: string[];
}

export interface PromptInput {
  character: PromptCharacter;
  /** The persona's name if a persona is chosen, else the profile name. */
  userName: string;
  persona: { name: string; description: string } | null;
  /** The chat's memory summary ('' if none): the short-term layer. */
  memory: string;
  /**
   * Long-term memories of the user and character (the memories module: docs/memory.md), one
   * line each, already chosen within their budget; `ids[i]` is the memory of `lines[i]`.
   */
  longTermMemory?: { ids: string[]; lines: string[]; note?: string };
  /**
   * The lorebooks of the prompt, compiled (the lorebooks module's `forPrompt`: the character's,
   * the user's global and attached books); without them, the card's own `lorebook`.
   */
  books?: CompiledBook[];
  /** The lorebook's rolls for entries with a probability (seeded per send: `loreRandom`). */
  random?: () => number;
  /**
   * The chat's author's note: a system turn `depth` messages before the newest (0: after it,
   * deeper than the history: before its oldest kept message); none when its text is empty.
   */
  authorNote?: { text: string; depth: number } | null;
  /** Oldest first; ends with the newest user message. */
  history: PromptMessage[];
  /** A group scene: its setting, who is present, and that she writes only her own lines. */
  scene?: PromptScene | null;
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
  /** The long-term memories whose lines the prompt holds whole (in prompt order). */
  memoryIds: string[];
  /** Every lore entry that fired, and whether it went in (the reply's "what went into the prompt"). */
  lore: FiredEntry[];
  /** The author's note as the model reads it (names replaced); null when empty or left out for room. */
  authorNote: string | null;
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
/** The share of the prompt budget lorebook entries may take at most. */
export const LORE_BUDGET_SHARE = 0.25;

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

/** A group scene's section: where, what is happening, who is there, and whose lines she writes. */
function sceneText(scene: PromptScene, charName: string): string {
  const present = [...scene.characters, ...scene.people];
  return [
    scene.place.trim() ? `Place: ${scene.place.trim()}` : '',
    scene.situation.trim() ? `Situation: ${scene.situation.trim()}` : '',
    present.length ? `Also present: ${present.join(', ')}.` : '',
    `This is a group conversation; the others' lines are shown with their names. Write only ${charName}'s next message, never the lines of anyone else.`,
  ]
    .filter(Boolean)
    .join('\n');
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

/**
 * A seeded random in [0, 1) (mulberry32 over the FNV-1a hash of `seed`): a send's lorebook rolls
 * are drawn from the chat and the message answered, so the same send always rolls the same.
 */
export function loreRandom(seed: string): () => number {
  let hash = 0x811c9dc5;
  for (let i = 0; i < seed.length; i++) hash = Math.imul(hash ^ seed.charCodeAt(i), 0x01000193) >>> 0;
  return mulberry32(hash);
}

/**
 * The contents of a card book's entries that go in (activation: the lorebooks module's
 * `activateLore`): constant entries and those whose keys appear in the newest `scan_depth`
 * messages, within the book's `token_budget` and `limit`, in insertion order.
 */
export async function selectLoreEntries(
  book: CharacterBook | null,
  scanned: string[],
  limit: number,
  countTokens: (text: string) => Promise<number>,
  random: () => number = Math.random,
): Promise<string[]> {
  if (!book || typeof book !== 'object' || Array.isArray(book)) return [];
  const fired = await activateLore([compileCardBook(book)], scanned, limit, countTokens, random);
  return fired.filter((f) => f.status === 'inserted').map((f) => f.content);
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
  const toTurn = (message: PromptMessage): ChatTurn => {
    const other = message.speaker && !message.speaker.self ? message.speaker.name : null;
    return {
      role: message.role === 'bot' && !other ? 'assistant' : 'user',
      content: other ? `${other}: ${names(message.text)}` : names(message.text),
    };
  };
  const texts = conversation.map(({ message }) => message.text);
  const books = input.books ?? (input.character.lorebook ? [compileCardBook(input.character.lorebook)] : []);
  const lore = books.length
    ? await activateLore(books, texts.map(names), Math.floor(budget * LORE_BUDGET_SHARE), tokens.count, input.random)
    : [];
  const { parts, post } = await promptSections(input, lore, names);
  const newest = conversation.at(-1);
  const draft: Draft = { parts, post, newestTurn: newest ? toTurn(newest.message) : null, shortened: false };
  await fitFixedParts(draft, budget, tokens);
  const built = await keepHistory(draft, conversation, {
    historyLength: input.history.length,
    budget,
    tokens,
    toTurn,
    inserts: historyInserts(input, lore, names),
  });
  return { ...built, memoryIds: keptMemoryIds(draft, input, names), lore };
}

/** A system turn put `depth` messages before the newest: the author's note, lore entries at a depth. */
interface HistoryInsert {
  depth: number;
  text: string;
  /** The author's note this insert carries (names replaced). */
  note?: string;
}

/**
 * The turns inside the history: lore entries `at_depth` (one turn per depth), and the author's
 * note with the entries placed at its top and bottom (at the note's depth, even without a note).
 */
function historyInserts(input: PromptInput, lore: FiredEntry[], names: (text: string) => string): HistoryInsert[] {
  const inserted = lore.filter((f) => f.status === 'inserted');
  const contents = (position: FiredEntry['position']) =>
    inserted.filter((f) => f.position === position).map((f) => names(f.content));
  const inserts: HistoryInsert[] = [];
  const depths = [...new Set(inserted.filter((f) => f.position === 'at_depth').map((f) => f.depth))];
  for (const depth of depths.sort((a, b) => b - a)) {
    const text = inserted
      .filter((f) => f.position === 'at_depth' && f.depth === depth)
      .map((f) => names(f.content))
      .join('\n\n');
    inserts.push({ depth, text });
  }
  const note = input.authorNote?.text?.trim() ? names(input.authorNote.text.trim()) : null;
  const around = [...contents('an_top'), ...(note ? [`[${note}]`] : []), ...contents('an_bottom')];
  if (around.length)
    inserts.push({
      depth: Math.max(0, Math.floor(input.authorNote?.depth ?? 4)),
      text: around.join('\n\n'),
      ...(note ? { note } : {}),
    });
  return inserts;
}

const longTermTitle = (charName: string, userName: string) =>
  `What ${charName} remembers about ${userName} (long-term memory)`;

/** The memories whose lines survived the fitting whole (a shortened section keeps its first lines). */
function keptMemoryIds(draft: Draft, input: PromptInput, names: (text: string) => string): string[] {
  const memory = input.longTermMemory;
  if (!memory?.ids.length) return [];
  const title = `# ${longTermTitle(input.character.name, input.userName)}\n`;
  const part = draft.parts.find((p) => p.text.startsWith(title));
  if (!part) return [];
  const kept = new Set(part.text.slice(title.length).split('\n'));
  return memory.ids.filter((_, i) => kept.has(names(memory.lines[i]!)));
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
  lore: FiredEntry[],
  names: (text: string) => string,
): Promise<{ parts: Section[]; post: Section | null }> {
  const card = input.character;
  const charName = card.name;
  const loreAt = (position: FiredEntry['position']) =>
    lore
      .filter((f) => f.status === 'inserted' && f.position === position)
      .map((f) => f.content)
      .join('\n\n');
  const sections: (Section | null)[] = [
    { drop: null, text: names(platformRules(input.locale)) },
    section(`Character: ${charName}`, names(card.systemPrompt.replace(/\{\{\s*original\s*\}\}/gi, '')), 9),
    section('World information', names(loreAt('before_char')), 1),
    section(`${charName}'s description`, names(card.description), 8),
    section(`${charName}'s personality`, names(card.personality), 7),
    section('Scenario', names(card.scenario), 6),
    input.scene ? section('The scene', sceneText(input.scene, charName), null) : null,
    section(
      `Example dialogue (shows ${charName}'s style; not part of this conversation)`,
      names(formatExamples(card.exampleMessages)),
      2,
    ),
    input.persona ? section(`About ${input.userName} (the user)`, names(input.persona.description), 5) : null,
    section('World information', names(loreAt('after_char')), 1),
    section('Memory of the conversation so far', names(input.memory), 3),
    input.longTermMemory?.lines.length
      ? section(
          longTermTitle(charName, input.userName),
          // The note (citations asked of the model) goes first: a shortened section keeps it.
          [
            ...(input.longTermMemory.note ? [input.longTermMemory.note] : []),
            ...input.longTermMemory.lines.map(names),
          ].join('\n'),
          3,
        )
      : null,
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

/**
 * The kept history with the inserts in it: each `depth` messages before the newest (deeper than
 * the history: first); at one place, deeper inserts first, in the order given.
 */
function placeInserts(kept: ChatTurn[], inserts: HistoryInsert[]): ChatTurn[] {
  const slots = new Map<number, ChatTurn[]>();
  for (const insert of inserts) {
    const slot = Math.max(0, kept.length - insert.depth);
    slots.set(slot, [...(slots.get(slot) ?? []), { role: 'system', content: insert.text }]);
  }
  const placed = kept.flatMap((turn, i) => [...(slots.get(i) ?? []), turn]);
  placed.push(...(slots.get(kept.length) ?? []));
  return placed;
}

/** 3. As many older messages as fit, newest first, without gaps; the prompt as built. */
async function keepHistory(
  draft: Draft,
  conversation: { message: PromptMessage; index: number }[],
  options: {
    historyLength: number;
    budget: number;
    tokens: Tokens;
    toTurn: (message: PromptMessage) => ChatTurn;
    inserts: HistoryInsert[];
  },
): Promise<BuiltPrompt> {
  const { budget, tokens, toTurn } = options;
  const head: ChatTurn[] = draft.parts.length ? [{ role: 'system', content: systemText(draft) }] : [];
  const tail: ChatTurn[] = draft.post ? [{ role: 'system', content: draft.post.text }] : [];
  const newestTurn = draft.newestTurn;
  let used = 0;
  for (const turn of [...head, ...tail, ...(newestTurn ? [newestTurn] : [])]) used += await tokens.cost(turn.content);
  // The author's note and lore at a depth are kept before older messages (they steer the next reply), if they fit.
  const inserts: HistoryInsert[] = [];
  for (const insert of options.inserts) {
    const insertCost = await tokens.cost(insert.text);
    if (used + insertCost > budget) continue;
    used += insertCost;
    inserts.push(insert);
  }

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
    messages: [...head, ...placeInserts(kept, inserts), ...tail],
    historyIncluded: options.historyLength - firstIndex,
    truncated: leftOut || draft.shortened,
    tokens: used,
    memoryIds: [],
    lore: [],
    authorNote: inserts.find((insert) => insert.note)?.note ?? null,
  };
}
