// The memory benchmark's worker (bench/suites/memory.mjs runs it with tsx): recall@5 of the
// probe set (bench/data/memory-probes.json) with full-text search alone and with the
// deterministic test embedder, then retrieval time for one turn with PAIR memories for the
// pair and TABLE in the table, by words and with embeddings (the pair's memories hold vectors
// of VECTOR_DIMS, as every memory does when embeddings are on). Prints one JSON line of
// figures. Env: MEMORY_BENCH_URL (a PostgreSQL database, else PGlite in memory),
// MEMORY_BENCH_PAIR, MEMORY_BENCH_TABLE, MEMORY_BENCH_RUNS.
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { sql } from 'drizzle-orm';
import { openDatabase } from '../../apps/server/src/db/client.js';
import { runMigrations } from '../../apps/server/src/db/migrate.js';
import { bots, memories, users } from '../../apps/server/src/db/schema.js';
import { memoryValues } from '../../apps/server/src/modules/memories/memories.service.js';
import { pairKey, searchTerms } from '../../apps/server/src/modules/memories/terms.js';
import { fakeEmbedding } from '../../apps/server/test/fake-embedder.js';
import { standaloneMemories } from '../../apps/server/test/standalone-memories.js';

const here = path.dirname(fileURLToPath(import.meta.url));
const data = JSON.parse(fs.readFileSync(path.join(here, '../data/memory-probes.json'), 'utf8')) as {
  facts: { id: string; lang: string; kind: 'user'; text: string }[];
  probes: { id: string; lang: string; text: string; memory: string }[];
  conversations: { lang: string; turns: { role: string; text: string }[] }[];
};
const PAIR = Number(process.env.MEMORY_BENCH_PAIR ?? 20_000);
const TABLE = Number(process.env.MEMORY_BENCH_TABLE ?? 1_000_000);
const RUNS = Number(process.env.MEMORY_BENCH_RUNS ?? 500);

const handle = await openDatabase(
  process.env.MEMORY_BENCH_URL ? { url: process.env.MEMORY_BENCH_URL, poolSize: 4 } : { pgliteDir: 'memory://' },
);
await runMigrations(handle);
const db = handle.db;
const [user] = await db
  .insert(users)
  .values({ username: 'bench', email: 'bench@example.test', passwordHash: '!', name: 'Alex' })
  .returning();
const newBot = async (slug: string) =>
  (await db.insert(bots).values({ slug, name: 'Mia', age: 25, description: '', greeting: '' }).returning())[0]!;

const service = (embed: boolean) =>
  standaloneMemories(db, { llm: embed ? { embed: async (texts: string[]) => texts.map(fakeEmbedding) } : {} });

/** The probe set's memories for a pair: the 300 facts and 700 distractors from the conversations' small talk. */
async function plant(botId: string, embed: boolean): Promise<Map<string, string>> {
  const ids = new Map<string, string>();
  const filler = data.conversations.flatMap((c) => c.turns.filter((t) => !('fact' in t)).map((t) => t.text));
  const rows = [
    ...data.facts.map((f) => ({ key: f.id, text: f.text })),
    ...Array.from({ length: 700 }, (_, i) => ({ key: `d${i}`, text: `${filler[i % filler.length]} (${i})` })),
  ];
  for (let i = 0; i < rows.length; i += 200) {
    const batch = rows.slice(i, i + 200);
    const inserted = await db
      .insert(memories)
      .values(
        batch.map((r) =>
          memoryValues(user!.id, botId, {
            kind: 'user',
            text: r.text,
            eventDate: null,
            importance: 3,
            pinned: false,
            origin: 'model',
            sourceMessageIds: [],
            embedding: embed ? fakeEmbedding(r.text) : null,
          }),
        ),
      )
      .returning({ id: memories.id });
    inserted.forEach((row, j) => ids.set(batch[j]!.key, row.id));
  }
  return ids;
}

/**
 * A send's last three turns for probe `i` (recall with context): the previous probe (another
 * fact's question), the reply of the send bench's fake model, and the probe.
 */
const REPLY = 'The' + ' moon'.repeat(15);
const sendTurns = (i: number) => [
  data.probes[(i + data.probes.length - 1) % data.probes.length]!.text,
  REPLY,
  data.probes[i]!.text,
];

async function recall(embed: boolean, send = false): Promise<{ all: number; byLang: Record<string, number> }> {
  const turnsOf = (i: number) => (send ? sendTurns(i) : [data.probes[i]!.text]);
  const bot = await newBot(`bench-${embed ? 'embed' : 'fts'}${send ? '-send' : ''}`);
  const ids = await plant(bot.id, embed);
  const s = service(embed);
  let hits = 0;
  const perLang: Record<string, [number, number]> = {};
  for (const [i, probe] of data.probes.entries()) {
    const got = await s.forPrompt({ userId: user!.id, botId: bot.id, turns: turnsOf(i), budgetTokens: 100_000 });
    const hit = got.ids.slice(0, 5).includes(ids.get(probe.memory)!);
    hits += hit ? 1 : 0;
    const l = (perLang[probe.lang] ??= [0, 0]);
    l[0] += hit ? 1 : 0;
    l[1] += 1;
  }
  return {
    all: hits / data.probes.length,
    byLang: Object.fromEntries(Object.entries(perLang).map(([k, [h, n]]) => [k, h / n])),
  };
}

const fts = await recall(false);
const emb = await recall(true);
// The same probes as a send's third turn (not a target: what the turns before it do to recall).
const ftsSend = await recall(false, true);
const embSend = await recall(true, true);

// Speed: PAIR memories for one pair and TABLE in the table. The other pairs are other people's
// (50 users, each with one of 20 characters): a table where one user owned every row would make
// the planner expect that user's rows everywhere and walk the table for a pair with none.
const started = performance.now();
const pairBot = await newBot('bench-speed');
const others = await Promise.all(Array.from({ length: 20 }, (_, i) => newBot(`bench-other-${i}`)));
const otherUsers = await db
  .insert(users)
  .values(
    Array.from({ length: 50 }, (_, i) => ({
      username: `bench-other-${i}`,
      email: `bench-other-${i}@example.test`,
      passwordHash: '!',
      name: `Other ${i}`,
    })),
  )
  .returning({ id: users.id });
const vocabulary = [...new Set(data.facts.flatMap((f) => searchTerms(f.text)))];
/** The generated memories' vectors: the test embedder's size, values spread by row and dimension. */
const VECTOR_DIMS = 256;
const vectorValue = `((((g * 131 + i * 71) % 199) - 99) / 1000.0)::real`;
const stored = await storedVector();
/**
 * Row g's vector in the stored form of the code under test: the `vector` column's bytes (four a
 * float, as float4send writes them; migration 0029 and later) or, before it, a `real[]`.
 */
async function storedVector(): Promise<{ column: string; expr: string }> {
  const result = await db.execute(
    sql.raw(`select 1 from information_schema.columns where table_name = 'memories' and column_name = 'vector'`),
  );
  const rows = 'rows' in (result as object) ? (result as { rows: unknown[] }).rows : (result as unknown as unknown[]);
  return rows.length
    ? {
        column: 'vector',
        expr: `(select string_agg(float4send(${vectorValue}), ''::bytea order by i) from generate_series(1, ${VECTOR_DIMS}) i)`,
      }
    : {
        column: 'embedding',
        expr: `array(select ${vectorValue} from generate_series(1, ${VECTOR_DIMS}) i order by i)`,
      };
}
async function fill(botId: string, count: number, userId = user!.id, vectors = false) {
  const key = pairKey(userId, botId);
  const vocab = `array[${vocabulary.map((v) => `'${key}:${v.replace(/'/g, "''")}'`).join(',')}]::text[]`;
  const step = 50_000;
  for (let from = 0; from < count; from += step) {
    const to = Math.min(count, from + step);
    await db.execute(
      sql.raw(`insert into memories (user_id, bot_id, kind, text, importance, origin, terms, dedupe_key, updated_at, ${stored.column})
      select '${userId}', '${botId}', 'user', 'Generated memory number ' || g, 1 + g % 5, 'model',
        array[(${vocab})[1 + (g * 7919) % ${vocabulary.length}], '${key}:w' || (g % 5000), '${key}:x' || (g % 3001), '${key}:y' || (g % 977), '${key}:z' || (g % 4001)],
        'generated ' || g, now() - (g || ' minutes')::interval, ${vectors ? stored.expr : 'null'}
      from generate_series(${from + 1}, ${to}) g`),
    );
  }
}
await fill(pairBot.id, PAIR, user!.id, true);
const rest = Math.max(0, TABLE - PAIR);
for (let i = 0; i < otherUsers.length; i++)
  await fill(others[i % others.length]!.id, Math.floor(rest / otherUsers.length), otherUsers[i]!.id);
await db.execute(sql.raw('analyze memories'));
const fillSeconds = (performance.now() - started) / 1000;
/**
 * One turn's retrieval timed RUNS times after 50 warm-ups (each a probe, then "And what else?"),
 * for the pair of `botId`: the quantile function of the times (ms).
 */
async function timeTurns(memories: ReturnType<typeof service>, botId: string): Promise<(p: number) => number> {
  const times: number[] = [];
  for (let i = 0; i < RUNS + 50; i++) {
    const probe = data.probes[i % data.probes.length]!;
    const t0 = performance.now();
    await memories.forPrompt({ userId: user!.id, botId, turns: [probe.text, 'And what else?'], budgetTokens: 600 });
    if (i >= 50) times.push(performance.now() - t0);
  }
  times.sort((a, b) => a - b);
  return (p) => times[Math.min(times.length - 1, Math.floor(p * times.length))]!;
}
const q = await timeTurns(service(false), pairBot.id);
// The same with embeddings on (the test embedder in the process: no request): the candidates
// and the pair's newest memories come with their vectors, compared in the process.
const qv = await timeTurns(service(true), pairBot.id);
// The same turns for a pair without memories: what the memory read costs a send when there is nothing to find.
const qe = await timeTurns(service(false), (await newBot('bench-empty')).id);
const [{ count } = { count: 0 }] = (await db
  .execute(sql.raw('select count(*)::int as count from memories'))
  .then((r) =>
    'rows' in (r as object) ? (r as { rows: { count: number }[] }).rows : (r as unknown as { count: number }[]),
  )) as { count: number }[];
console.log(
  JSON.stringify({
    engine: process.env.MEMORY_BENCH_URL ? 'postgres' : 'pglite',
    recallFts: fts.all,
    recallFtsByLang: fts.byLang,
    recallEmbed: emb.all,
    recallEmbedByLang: emb.byLang,
    recallFtsSend: ftsSend.all,
    recallFtsSendByLang: ftsSend.byLang,
    recallEmbedSend: embSend.all,
    recallEmbedSendByLang: embSend.byLang,
    tableRows: count,
    pairRows: PAIR,
    fillSeconds,
    p50: q(0.5),
    p99: q(0.99),
    embedP50: qv(0.5),
    embedP99: qv(0.99),
    vectorDims: VECTOR_DIMS,
    emptyP50: qe(0.5),
    emptyP99: qe(0.99),
  }),
);
await handle.close();
