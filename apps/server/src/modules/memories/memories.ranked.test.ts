import { sql, type SQL } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { rowsOf, type DatabaseHandle } from '../../db/client.js';
import { memories, users } from '../../db/schema.js';
import { countedMemoryPair, userMemoryValues } from '../../../test/memory-pair.js';
import { standaloneMemories } from '../../../test/standalone-memories.js';
import * as repo from './memories.repository.js';
import { memoryValues, promptFinders } from './memories.service.js';
import { memoryLine, rankMemories, selectForPrompt } from './retrieval.js';
import { pairKey, searchTerms } from './terms.js';

/**
 * The prompt's statement ranked by words (embeddings off; docs/memory.md "Retrieval"): it
 * returns only the best candidates, and the prompt is the one the ranking of every candidate
 * in the process gives — whatever the budget (a walk that needs more reads the rest) — and it
 * is one prepared statement whose generic plan finds the candidates through the terms' GIN index.
 */
let db: DatabaseHandle['db'];
const statements: string[] = [];
let userId = '';
let botId = '';
const now = new Date('2026-11-28T12:00:00Z');
const service = () => standaloneMemories(db, { now: () => now });

const WORDS = ['sister', 'garden', 'violin', 'paris', 'winter', 'coffee', 'dog', 'river', 'bakery', 'chess'];

beforeAll(async () => {
  ({ db, userId, botId } = await countedMemoryPair('ranked', statements));
  // 160 memories sharing words in many ways, of every length (one far longer), importance and
  // age; written 40 at a time, so that those of one statement share their time (equal scores).
  const rows = Array.from({ length: 160 }, (_, i) => {
    const words = WORDS.filter((_, w) => (i + 1) % (w + 2) === 0 || w === i % WORDS.length);
    const text =
      i === 7
        ? `Alex ${words.join(' ')} ${'and a very long story about everything '.repeat(30)}`
        : `Alex ${words.join(' and ')}${' with friends'.repeat(i % 4)} ${i}`;
    return {
      ...memoryValues(userId, botId, {
        kind: i % 9 === 0 ? 'event' : 'user',
        text,
        eventDate: i % 9 === 0 ? '2026-05-01' : null,
        importance: 1 + (i % 5),
        pinned: i % 37 === 0,
        origin: 'model',
        sourceMessageIds: [],
      }),
      updatedAt: new Date(now.getTime() - Math.floor(i / 40) * 86_400_000 * 3),
    };
  });
  for (let i = 0; i < rows.length; i += 40) await db.insert(memories).values(rows.slice(i, i + 40));
});

/** The prompt the ranking of every candidate in the process gives (the path of embeddings on). */
async function everyCandidate(turns: string[], budgetTokens: number) {
  const key = pairKey(userId, botId);
  const query = turns.join('\n').slice(-2000);
  const terms = searchTerms(query).map((t) => `${key}:${t}`);
  const { pinned, candidates } = await repo.promptCandidates(db, userId, botId, terms, {
    pinned: 8,
    limit: 300,
    finders: promptFinders(turns, query, key),
  });
  const ranked = rankMemories({ pinned, candidates, total: Math.max(candidates.length * 4, 50), now });
  const chosen = selectForPrompt(pinned, ranked, budgetTokens, 12);
  return { ids: chosen.map((m) => m.id), lines: chosen.map(memoryLine), candidates: candidates.length };
}

describe('the prompt statement ranked by words', () => {
  it('chooses what ranking every candidate chooses, reading the rest only when the budget walk needs it', async () => {
    const s = service();
    let compared = 0;
    let readRest = 0;
    for (const turns of [
      ['How is my sister?', 'She plays the violin in Paris.', 'And the garden in winter?'],
      ['How is my sister?', 'She plays the violin in Paris.', 'What about coffee, chess and the bakery?'],
      ['coffee and chess with the dog by the river'],
      ['Tell me about the bakery'],
      ['sister garden violin paris winter coffee dog river bakery chess'],
      ['Nothing in common here'],
    ])
      for (const budget of [600, 90, 30, 12]) {
        const full = await everyCandidate(turns, budget);
        statements.length = 0;
        const got = await s.forPrompt({ userId, botId, turns, budgetTokens: budget });
        expect({ turns, budget, lines: got.lines }).toEqual({ turns, budget, lines: full.lines });
        expect(got.ids).toEqual(full.ids);
        if (statements.length > 1) readRest++;
        else if (budget === 600 && full.candidates > 40) compared++;
      }
    // The shortest text a walk may still need: of every candidate (at most what the rest holds),
    // known only when the statement left candidates out.
    const key = pairKey(userId, botId);
    const counts: number[] = [];
    for (const turns of [['coffee and chess with the dog by the river'], ['Tell me about the bakery']]) {
      const terms = searchTerms(turns.join('\n')).map((t) => `${key}:${t}`);
      const got = await repo.promptCandidatesByWords(db, userId, botId, terms, { pinned: 8, limit: 300, top: 40, now });
      const { candidates } = await repo.promptCandidates(db, userId, botId, terms, { pinned: 8, limit: 300 });
      expect(got.count).toBe(candidates.length);
      counts.push(got.count);
      expect(got.restChars).toBe(
        candidates.length > 40 ? Math.min(...candidates.map((c) => [...c.text].length)) : null,
      );
    }
    expect(Math.max(...counts)).toBeGreaterThan(40);
    expect(Math.min(...counts)).toBeLessThanOrEqual(40);
    // Some turns found more candidates than the statement returns, and were answered by it alone.
    expect(compared).toBeGreaterThan(0);
    // A small budget skipped lines down the list: those walks read the rest.
    expect(readRest).toBeGreaterThan(0);
  });

  it("is one prepared statement whose generic plan finds candidates through the terms' GIN index", async () => {
    // Other pairs' memories around the pair's, as in the benchmark's table (the pair's index
    // must not be used to find the pair's candidates: the terms are scoped to the pair).
    const [other] = await db
      .insert(users)
      .values({ username: 'ranked2', email: 'ranked2@example.test', passwordHash: '!', name: 'Sam' })
      .returning();
    const otherKey = pairKey(other!.id, botId);
    await db.execute(sql`
      insert into memories (user_id, bot_id, kind, text, origin, terms, dedupe_key)
      select ${other!.id}, ${botId}, 'user', 'Other memory ' || g, 'model',
        array[${otherKey} || ':a' || (g % 300), ${otherKey} || ':b' || (g % 97)], 'other ' || g
      from generate_series(1, 5000) g`);
    await db.execute(sql`analyze memories`);
    const key = pairKey(userId, botId);
    const query = repo.rankedByWords(
      userId,
      botId,
      ['sister', 'violin'].map((t) => `${key}:${t}`),
      {
        pinned: 8,
        limit: 300,
        top: 40,
        now,
      },
    );
    const plan = await genericPlan(query);
    expect(plan).toMatch(/Bitmap Index Scan on memories_terms_idx/);
    expect(plan).not.toMatch(/Seq Scan on memories/);
    expect(plan).not.toMatch(/memories_pair_idx|memories_dedupe_idx/);
    expect(plan).toMatch(/memories_pinned_idx/);
    // The query's terms are split once per execution (an InitPlan), not again for each term of
    // each candidate, which the generic plan did with `= any(string_to_array($n, ' '))`.
    expect(plan).toMatch(/= ANY \((\$\d+|\(InitPlan \d+\)\.col\d+)\)/);
    expect(plan).not.toMatch(/ANY \(string_to_array/);
    // Ranked by words, a prompt's memories are one statement.
    statements.length = 0;
    await service().forPrompt({ userId, botId, turns: ['my sister and her violin'], budgetTokens: 600 });
    expect(statements).toHaveLength(1);
  });

  it('runs the statement in its stored function, with its generic plan: the function holds its text', async () => {
    // Migration 0028's memories_by_words is rankedByWords word for word (a change of one needs a
    // migration of the other), run under force_generic_plan: prepared, PostgreSQL planned the
    // statement at every execution, its generic plan's estimate being above the custom plans'.
    const [fn] = rowsOf<{ prosrc: string; proconfig: string[] | string | null }>(
      await db.execute(sql`select prosrc, proconfig from pg_proc where proname = 'memories_by_words'`),
    );
    expect(fn).toBeDefined();
    expect(String(fn!.proconfig)).toContain('plan_cache_mode=force_generic_plan');
    const { dialect } = db as unknown as { dialect: { sqlToQuery(q: SQL): { sql: string; params: unknown[] } } };
    const options = { pinned: 8, limit: 300, top: 40, now, finders: ['b'] };
    const statement = dialect.sqlToQuery(repo.rankedByWords(userId, botId, ['a'], options));
    const flat = (text: string) => text.replace(/\s+/g, ' ').trim();
    expect(flat(fn!.prosrc)).toContain(`RETURN QUERY ${flat(statement.sql)};`);
    // The call passes the statement's parameters in their order.
    expect(dialect.sqlToQuery(repo.memoriesByWordsCall(userId, botId, ['a'], options)).params).toEqual(
      statement.params,
    );
    // And it is what a prompt runs: one statement, calling it.
    statements.length = 0;
    await service().forPrompt({ userId, botId, turns: ['my sister and her violin'], budgetTokens: 600 });
    expect(statements).toHaveLength(1);
    expect(statements[0]).toMatch(/memories_by_words\(/);
  });

  it("prepares the read of embeddings on too: its generic plan reads the terms' GIN index", async () => {
    const key = pairKey(userId, botId);
    const query = repo.promptCandidatesQuery(
      userId,
      botId,
      ['sister', 'violin'].map((t) => `${key}:${t}`),
      { pinned: 8, limit: 300, withEmbedding: true, recent: 200 },
    );
    const plan = await genericPlan(query);
    expect(plan).toMatch(/Bitmap Index Scan on memories_terms_idx/);
    expect(plan).toMatch(/memories_pinned_idx/);
    expect(plan).not.toMatch(/Seq Scan on memories/);
    expect(plan).not.toMatch(/ANY \(string_to_array/);
  });
});

describe('which turns find the candidates', () => {
  it('the newest turn finds them when it has three terms or more, and the earlier turns weigh in their order', async () => {
    const statementsHere: string[] = [];
    const here = await countedMemoryPair('finders', statementsHere);
    const write = (text: string, minutesAgo: number) =>
      here.db
        .insert(memories)
        .values({
          ...userMemoryValues(here.userId, here.botId, text),
          updatedAt: new Date(now.getTime() - minutesAgo * 60_000),
        })
        .returning({ id: memories.id })
        .then((r) => r[0]!.id);
    const garden = await write('The garden is full of roses', 1);
    const sam = await write('Sam plays the violin', 2);
    const sister = await write("Alex's sister plays the violin", 3);
    for (const embed of [false, true]) {
      // Embeddings on: vectors that resemble nothing (the words decide), ranked in the process.
      const s = standaloneMemories(here.db, {
        now: () => now,
        ...(embed ? { llm: { embed: async (texts: string[]) => texts.map(() => [0, 0, 1]) } } : {}),
      });
      const ask = (last: string) =>
        s.forPrompt({
          userId: here.userId,
          botId: here.botId,
          turns: ['My sister loves the garden', 'Lovely!', last],
          budgetTokens: 600,
        });
      // Three terms (plays, violin, family): the violin's memories only — the garden, which
      // only the earlier turn named, is not looked for — and the sister's, which the earlier
      // turn names too, comes before Sam's, the newer.
      expect((await ask('Who plays the violin in the family?')).ids, `embed ${embed}`).toEqual([sister, sam]);
      // Two terms ("tell", "more"): the turns before it find too, as a query of all three.
      const short = (await ask('Tell me more')).ids;
      expect(short, `embed ${embed}`).toContain(garden);
      expect(short, `embed ${embed}`).toContain(sister);
    }
    expect(promptFinders(['a b c'], 'a b c', 'k')).toBeUndefined();
  });
});

/** The plan PostgreSQL keeps for `query` prepared (its generic plan, whatever the values). */
async function genericPlan(query: ReturnType<typeof repo.rankedByWords>): Promise<string> {
  const { dialect } = db as unknown as {
    dialect: { sqlToQuery(q: typeof query): { sql: string; params: unknown[] } };
  };
  const { sql: text, params } = dialect.sqlToQuery(query);
  const literal = (v: unknown) => (typeof v === 'number' ? String(v) : `'${String(v).replace(/'/g, "''")}'`);
  return db.transaction(async (tx) => {
    await tx.execute(sql`set local plan_cache_mode = force_generic_plan`);
    await tx.execute(sql.raw(`prepare memories_plan as ${text}`));
    const rows = rowsOf<Record<string, string>>(
      await tx.execute(sql.raw(`explain execute memories_plan(${params.map(literal).join(', ')})`)),
    );
    await tx.execute(sql.raw('deallocate memories_plan'));
    return rows.map((r) => Object.values(r)[0]).join('\n');
  });
}
