/**
 * Who speaks next in a group scene (issue 32, docs/groups.md "Who speaks next"). Pure: the
 * scene's characters, the recent messages and what triggered the turn in; a decision out. The
 * model is asked only when the rule cannot tell (`ask_model`), and its answer is read back
 * with `readModelChoice`.
 */

export interface TurnCharacter {
  botId: string;
  name: string;
  muted: boolean;
}

/** A recent message of the scene, oldest first: who said it (a character's id, or null for a person) and its text. */
export interface TurnMessage {
  speakerBotId: string | null;
  text: string;
}

export interface TurnInput {
  characters: TurnCharacter[];
  /** The scene's recent messages, oldest first (system notices left out). */
  recent: TurnMessage[];
  /** `person`: after a person's message (the newest of `recent`); `continue`: the characters talk among themselves. */
  trigger: 'person' | 'continue';
  mode: 'auto' | 'manual';
}

export type TurnDecision =
  | { kind: 'speaker'; botId: string; reason: 'addressed' | 'rule' }
  | { kind: 'ask_model'; candidates: string[] }
  | { kind: 'none' };

/** How many of the newest messages the rule looks at for a name. */
export const RULE_LOOKBACK = 6;

const CJK = /[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\p{Script=Hangul}]/u;
const escapeRegExp = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/** The ways a character can be called: her name, its first word (3+ letters), as a word or after @. */
function callNames(name: string): string[] {
  const full = name.trim();
  const first = full.split(/\s+/)[0] ?? '';
  const names = [full];
  if (first !== full && [...first].length >= 3) names.push(first);
  return names.filter(Boolean);
}

/** Where in `text` the character is first called (-1: not at all). */
export function firstMention(text: string, name: string): number {
  let best = -1;
  for (const called of callNames(name)) {
    // Names in scripts written without spaces are found anywhere; others as whole words.
    const pattern = CJK.test(called)
      ? new RegExp(escapeRegExp(called), 'iu')
      : new RegExp(`(?<![\\p{L}\\p{N}_])@?${escapeRegExp(called)}(?![\\p{L}\\p{N}_])`, 'iu');
    const at = text.search(pattern);
    if (at >= 0 && (best < 0 || at < best)) best = at;
    // `@Name` written without the space of a two-word name.
    const glued = text.toLowerCase().indexOf(`@${called.replace(/\s+/g, '').toLowerCase()}`);
    if (glued >= 0 && (best < 0 || glued < best)) best = glued;
  }
  return best;
}

/** The character a text calls first (by name or @name), if any. */
export function addressedIn(text: string, characters: TurnCharacter[]): TurnCharacter | null {
  let found: { character: TurnCharacter; at: number } | null = null;
  for (const character of characters) {
    const at = firstMention(text, character.name);
    if (at >= 0 && (!found || at < found.at)) found = { character, at };
  }
  return found?.character ?? null;
}

/** The character who spoke last (null: a person, or nobody yet). */
function lastCharacter(recent: TurnMessage[]): string | null {
  for (let i = recent.length - 1; i >= 0; i--) {
    const id = recent[i]!.speakerBotId;
    if (id) return id;
    // A person spoke after her: the turn passes freely, but never to the same one twice in a row.
  }
  return null;
}

/**
 * Decides who speaks next:
 * 1. after a person's message, the character it calls (even a muted one, even the last speaker);
 * 2. in manual mode, after a person's message, nobody else;
 * 3. never the last speaker, never a muted one: with one candidate left, her;
 * 4. the rule: the candidate named most recently in the last `RULE_LOOKBACK` messages (by
 *    someone else) who has not spoken since, else the one silent longest;
 * 5. candidates who never spoke tie: the rule cannot tell, the model is asked among them.
 */
export function selectSpeaker(input: TurnInput): TurnDecision {
  const newest = input.recent.at(-1);
  if (input.trigger === 'person' && newest && newest.speakerBotId === null) {
    const called = addressedIn(newest.text, input.characters);
    if (called) return { kind: 'speaker', botId: called.botId, reason: 'addressed' };
    if (input.mode === 'manual') return { kind: 'none' };
  }
  const last = lastCharacter(input.recent);
  const candidates = input.characters.filter((c) => !c.muted && c.botId !== last);
  if (candidates.length === 0) return { kind: 'none' };
  if (candidates.length === 1) return { kind: 'speaker', botId: candidates[0]!.botId, reason: 'rule' };
  // Named most recently (not by herself), and not answered since.
  const window = input.recent.slice(-RULE_LOOKBACK);
  const spokeSince = new Set<string>();
  for (let i = window.length - 1; i >= 0; i--) {
    const message = window[i]!;
    const others = candidates.filter((c) => c.botId !== message.speakerBotId && !spokeSince.has(c.botId));
    const called = addressedIn(message.text, others);
    if (called) return { kind: 'speaker', botId: called.botId, reason: 'rule' };
    if (message.speakerBotId) spokeSince.add(message.speakerBotId);
  }
  // Silent longest: the candidate whose last line is oldest; those who never spoke tie.
  const lastSpoke = new Map<string, number>();
  input.recent.forEach((m, i) => {
    if (m.speakerBotId) lastSpoke.set(m.speakerBotId, i);
  });
  const never = candidates.filter((c) => !lastSpoke.has(c.botId));
  if (never.length > 1) return { kind: 'ask_model', candidates: never.map((c) => c.botId) };
  if (never.length === 1) return { kind: 'speaker', botId: never[0]!.botId, reason: 'rule' };
  const quietest = [...candidates].sort((a, b) => lastSpoke.get(a.botId)! - lastSpoke.get(b.botId)!)[0]!;
  return { kind: 'speaker', botId: quietest.botId, reason: 'rule' };
}

/** The model's one-line answer read as one of the candidates: the first named, else the first candidate. */
export function readModelChoice(answer: string, candidates: TurnCharacter[]): string {
  return addressedIn(answer, candidates)?.botId ?? candidates[0]!.botId;
}

/** The short request that asks the model who answers next (the rule could not tell). */
export function modelChoicePrompt(candidates: TurnCharacter[], recent: TurnMessage[], names: Map<string, string>) {
  const lines = recent
    .slice(-RULE_LOOKBACK)
    .map((m) => `${m.speakerBotId ? (names.get(m.speakerBotId) ?? 'Someone') : 'Person'}: ${m.text.slice(0, 500)}`);
  return [
    {
      role: 'system' as const,
      content: 'You direct a group roleplay scene. Reply with exactly one name: the character who should speak next.',
    },
    {
      role: 'user' as const,
      content: `${lines.join('\n')}\n\nWho speaks next? One of: ${candidates.map((c) => c.name).join(', ')}.`,
    },
  ];
}
