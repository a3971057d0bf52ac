// Where one turn's memory retrieval spends its time (docs/memory.md "Benchmark"): on a database
// filled as the memory bench fills it (MEMORY_EXPLAIN_URL; filled once when it has no
// memories: PAIR for the pair, TABLE in the table), it runs the retrieval for a few probe turns,
// catches every statement it issues, and prints EXPLAIN (ANALYZE, BUFFERS) of each — once as
// the first executions plan it (custom plan) and once as a prepared statement's generic plan,
// which postgres.js gets after five executions — then times 300 turns. A diagnostic, not a
// figure of record. Run from apps/server: node --import tsx ../../bench/support/memory-explain.ts
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { sql } from 'drizzle-orm';
import { drizzle } from 'drizzle-orm/postgres-js';
import postgres from 'postgres';
import type { Database } from '../../apps/server/src/db/client.js';
import { openDatabase } from '../../apps/server/src/db/client.js';
import { runMigrations } from '../../apps/server/src/db/migrate.js';
import * as schema from '../../apps/server/src/db/schema.js';
import { standaloneMemories } from '../../apps/server/test/standalone-memories.js';
import { pairKey, searchTerms } from '../../apps/server/src/modules/memories/terms.js';

const here = path.dirname(fileURLToPath(import.meta.url));
const data = JSON.parse(fs.readFileSync(path.join(here, '../data/memory-probes.json'), 'utf8')) as {
  facts: { text: string }[];
  probes: { text: string }[];
};
const URL_ = process.env.MEMORY_EXPLAIN_URL!;
const PAIR = Number(process.env.MEMORY_BENCH_PAIR ?? 20_000);
const TABLE = Number(process.env.MEMORY_BENCH_TABLE ?? 1_000_000);

const handle = await openDatabase({ url: URL_, poolSize: 2 });
await runMigrations(handle);
const base = handle.db;
const rows = async <T>(q: ReturnType<typeof sql.raw>) => {
  const r = (await base.execute(q)) as unknown;
  return ('rows' in (r as object) ? (r as { rows: T[] }).rows : (r as T[])) as T[];
};
let [found] = await rows<{ user_id: string; bot_id: string }>(
  sql.raw(
    `select u.id as user_id, b.id as bot_id from users u, bots b where u.username = 'bench' and b.slug = 'bench-speed'`,
  ),
);
if (!found) {
  const [user] = await base
    .insert(schema.users)
    .values({ username: 'bench', email: 'bench@example.test', passwordHash: '!', name: 'Alex' })
    .returning();
  const newBot = async (slug: string) =>
    (
      await base.insert(schema.bots).values({ slug, name: 'Mia', age: 25, description: '', greeting: '' }).returning()
    )[0]!;
  const pairBot = await newBot('bench-speed');
  await newBot('bench-empty');
  const others = await Promise.all(Array.from({ length: 20 }, (_, i) => newBot(`bench-other-${i}`)));
  const vocabulary = [...new Set(data.facts.flatMap((f) => searchTerms(f.text)))];
  const fill = async (botId: string, count: number) => {
    const key = pairKey(user!.id, botId);
    const vocab = `array[${vocabulary.map((v) => `'${key}:${v.replace(/'/g, "''")}'`).join(',')}]::text[]`;
    for (let from = 0; from < count; from += 50_000) {
      const to = Math.min(count, from + 50_000);
      await base.execute(
        sql.raw(`insert into memories (user_id, bot_id, kind, text, importance, origin, terms, dedupe_key, updated_at)
        select '${user!.id}', '${botId}', 'user', 'Generated memory number ' || g, 1 + g % 5, 'model',
          array[(${vocab})[1 + (g * 7919) % ${vocabulary.length}], '${key}:w' || (g % 5000), '${key}:x' || (g % 3001), '${key}:y' || (g % 977), '${key}:z' || (g % 4001)],
          'generated ' || g, now() - (g || ' minutes')::interval
        from generate_series(${from + 1}, ${to}) g`),
      );
    }
  };
  await fill(pairBot.id, PAIR);
  const rest = Math.max(0, TABLE - PAIR);
  for (const o of others) await fill(o.id, Math.floor(rest / others.length));
  await base.execute(sql.raw('vacuum analyze memories'));
  console.log(`vocabulary ${vocabulary.length} terms`);
  found = { user_id: user!.id, bot_id: pairBot.id };
}
const userId = found.user_id;
const [emptyBot] = await rows<{ id: string }>(sql.raw(`select id from bots where slug = 'bench-empty'`));

// A client that notes every statement (text and parameters) the retrieval sends.
const caught: { text: string; params: unknown[] }[] = [];
const client = postgres(URL_, {
  max: 2,
  onnotice: () => {},
  debug: (_conn, text, params) => void caught.push({ text, params: params as unknown[] }),
});
const db = drizzle(client, { schema }) as unknown as Database;
const service = standaloneMemories(db);
const turn = (i: number, botId = found!.bot_id) =>
  service.forPrompt({
    userId,
    botId,
    turns: [data.probes[i % data.probes.length]!.text, 'And what else?'],
    budgetTokens: 600,
  });

const explainer = postgres(URL_, { max: 1, onnotice: () => {} });
for (const i of [0, 1, 7]) {
  caught.length = 0;
  await turn(i);
  console.log(`\n### probe ${i}: ${data.probes[i]!.text}`);
  for (const [n, q] of caught.entries()) {
    console.log(`\n-- statement ${n + 1}: ${q.text}`);
    const custom = await explainer.unsafe(`explain (analyze, buffers) ${q.text}`, q.params as never[]);
    console.log(custom.map((r) => r['QUERY PLAN']).join('\n'));
    if (i === 0) {
      await explainer.unsafe(`set plan_cache_mode = force_generic_plan`);
      const literal = (v: unknown) => (typeof v === 'number' ? String(v) : `'${String(v).replace(/'/g, "''")}'`);
      await explainer.unsafe(`prepare explained as ${q.text}`);
      const prepared = await explainer
        .unsafe(`explain (analyze, buffers) execute explained(${q.params.map(literal).join(', ')})`)
        .catch((e: Error) => [{ 'QUERY PLAN': `(generic: ${e.message})` }]);
      await explainer.unsafe(`deallocate explained`);
      console.log('-- generic plan:\n' + prepared.map((r) => r['QUERY PLAN']).join('\n'));
      await explainer.unsafe(`reset plan_cache_mode`);
    }
  }
}
const time = async (botId: string) => {
  const t: number[] = [];
  for (let i = 0; i < 350; i++) {
    const t0 = performance.now();
    await turn(i, botId);
    if (i >= 50) t.push(performance.now() - t0);
  }
  t.sort((a, b) => a - b);
  return `p50 ${t[Math.floor(t.length / 2)]!.toFixed(2)} p99 ${t[Math.floor(t.length * 0.99)]!.toFixed(2)} ms`;
};
console.log(`\nretrieval, 20 000 memories: ${await time(found.bot_id)}; pair without: ${await time(emptyBot!.id)}`);
await explainer.end();
await client.end();
await handle.close();
