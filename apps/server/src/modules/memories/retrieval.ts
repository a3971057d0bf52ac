/**
 * Which memories go into a reply's prompt (docs/memory.md "Retrieval"): pinned ones always,
 * then the most relevant to the last turns — full-text (terms.ts) weighted by how rare each
 * term is among the pair's memories, plus cosine similarity when embeddings exist — with
 * importance and recency as tie-breakers, within a token budget. Pure: the service reads the
 * candidates.
 */
import { cosineTo, type VectorValue } from '../../db/float4-vector.js';
import { estimateTokens } from '../../providers/llm/llm.js';
import type { PromptMemory, SearchTerms, ShownMemory } from './memories.repository.js';
import { searchTerms } from './terms.js';

export interface Ranked<M extends PromptMemory = ShownMemory> {
  memory: M;
  score: number;
}

/**
 * A candidate whose shared terms were counted by the statement (`promptCandidates` ranked by
 * words): `dfs[i]` is how many of the search's candidates hold its i-th shared term — what
 * `rankMemories` would count from `matched` over every candidate, in the same order.
 */
export type CountedCandidate<M extends PromptMemory = PromptMemory> = M & { dfs: number[]; termCount: number };

export interface RankInput<M extends PromptMemory = ShownMemory> {
  pinned: M[];
  /** Memories sharing terms with the query, with the terms they share (unscoped or scoped alike). */
  candidates: (M & SearchTerms)[];
  /**
   * Or the best of them by words with their terms' counts (the rest were not read): ranked the
   * same, the rarity of each term counted over all the candidates.
   */
  counted?: CountedCandidate<M>[];
  /** Recent memories with their embeddings (semantic candidates), when embeddings are on. */
  recent?: (M & { embedding: VectorValue | null })[];
  queryEmbedding?: number[] | null;
  /** How many memories the pair has (the rarity of a term is counted against it). */
  total: number;
  now: Date;
}

/** Weights of the score: text relevance dominates; importance and recency order near ties. */
const W_IMPORTANCE = 0.08;
const W_RECENCY = 0.05;
const W_COSINE = 1.5;
/** Cosine similarity below which an embedding alone does not make a memory relevant. */
const COSINE_FLOOR = 0.35;
const DAY_MS = 86_400_000;

/** Relevant memories, best first (pinned ones not among them). */
export function rankMemories<M extends PromptMemory>(input: RankInput<M>): Ranked<M>[] {
  const pinnedIds = new Set(input.pinned.map((m) => m.id));
  const df = new Map<string, number>();
  for (const c of input.candidates) for (const term of c.matched) df.set(term, (df.get(term) ?? 0) + 1);
  const total = Math.max(input.total, input.candidates.length, 1);
  const idf = (d: number) => Math.log(1 + (total - d + 0.5) / (d + 0.5));
  const byId = new Map<string, Ranked<M>>();
  const extra = (m: M) =>
    W_IMPORTANCE * (m.importance / 5) +
    W_RECENCY * Math.exp(-(input.now.getTime() - m.updatedAt.getTime()) / (30 * DAY_MS));
  const similarity = input.queryEmbedding ? cosineTo(input.queryEmbedding) : null;
  const byWords = (dfs: number[], termCount: number) => {
    let text = 0;
    for (const d of dfs) text += idf(d);
    // Shorter memories holding the same terms are more to the point (BM25's length part, b = 0.5).
    return text / (0.5 + 0.5 * (Math.max(termCount, 1) / 8));
  };
  for (const c of input.candidates) {
    if (pinnedIds.has(c.id)) continue;
    const text = byWords(
      c.matched.map((term) => df.get(term) ?? 0),
      c.termCount,
    );
    const cos = similarity && c.embedding ? similarity(c.embedding) : 0;
    byId.set(c.id, { memory: c, score: text / 10 + W_COSINE * Math.max(0, cos) + extra(c) });
  }
  for (const c of input.counted ?? []) {
    if (pinnedIds.has(c.id)) continue;
    byId.set(c.id, { memory: c, score: byWords(c.dfs, c.termCount) / 10 + extra(c) });
  }
  if (similarity)
    for (const m of input.recent ?? []) {
      if (pinnedIds.has(m.id) || byId.has(m.id) || !m.embedding) continue;
      const cos = similarity(m.embedding);
      if (cos >= COSINE_FLOOR) byId.set(m.id, { memory: m, score: W_COSINE * cos + extra(m) });
    }
  // Equal scores: the newer first, then by id (memories written by one statement share their
  // time), the order the statement ranking by words uses too.
  return [...byId.values()].sort(
    (a, b) =>
      b.score - a.score ||
      b.memory.updatedAt.getTime() - a.memory.updatedAt.getTime() ||
      (a.memory.id < b.memory.id ? -1 : a.memory.id > b.memory.id ? 1 : 0),
  );
}

/** A memory as its prompt line shows it: a shared event with its day. */
export function memoryLine(m: Pick<ShownMemory, 'text' | 'kind' | 'eventDate'>): string {
  return m.kind === 'event' && m.eventDate ? `- ${m.text} (${m.eventDate})` : `- ${m.text}`;
}

/** What a memory's line costs of the budget (estimated tokens, and its line break). */
export function lineCost(m: Pick<ShownMemory, 'text' | 'kind' | 'eventDate'>): number {
  return estimateTokens(memoryLine(m)) + 1;
}

/**
 * The least `lineCost` of a memory whose text has `chars` characters (code points): its line
 * is at least that and "- " long in UTF-16 units, and a CJK character counts more than a quarter.
 */
export function leastLineCost(chars: number): number {
  return Math.ceil((chars + 2) / 4) + 1;
}

/**
 * The prompt's memories: pinned first (most important first), then the ranked ones, while
 * their lines fit `budgetTokens` (estimated) and at most `max` in all.
 */
export function selectForPrompt<M extends PromptMemory>(
  pinned: M[],
  ranked: Ranked<M>[],
  budgetTokens: number,
  max: number,
): M[] {
  const chosen: M[] = [];
  let used = 0;
  for (const memory of [...pinned, ...ranked.map((r) => r.memory)]) {
    if (chosen.length >= max) break;
    const cost = lineCost(memory);
    if (used + cost > budgetTokens) continue;
    used += cost;
    chosen.push(memory);
  }
  return chosen;
}

/**
 * Which memories of a prompt a reply drew on, by overlap (docs/memory.md "Citations"): the
 * memory's terms found in the reply — at least two, or all of a one-term memory — and at least
 * a third of the memory's terms.
 */
export function drewOn(memoryText: string, reply: string): boolean {
  const terms = searchTerms(memoryText);
  if (!terms.length) return false;
  const said = new Set(searchTerms(reply));
  const hits = terms.filter((t) => said.has(t)).length;
  return (hits >= 2 || hits === terms.length) && hits * 3 >= terms.length;
}
