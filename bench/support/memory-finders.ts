// Which turns find a send's memory candidates (docs/memory.md "Retrieval", *Which turns find*):
// on a database the memory bench filled (MEMORY_EXPLAIN_URL: `bench/support/memory-explain.ts`
// fills one, or BENCH_KEEP_DATABASE=1 npm run bench -- memory), the statement of a prompt ranked
// by words for a send's three turns (the previous probe, the fake model's reply, the probe) as
// it was (every term of the three turns finds) and as it is (`promptFinders`: the newest turn's
// terms find): how many candidates, PostgreSQL's execution (EXPLAIN ANALYZE, timing off, best
// of 3 per probe, the two in turns) and the process's CPU and wall time per statement
// (alternating blocks). A diagnostic, not a figure of record.
// Run from apps/server: node --import tsx ../../bench/support/memory-finders.ts
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { PgDialect } from 'drizzle-orm/pg-core';
import postgres from 'postgres';
import * as repo from '../../apps/server/src/modules/memories/memories.repository.js';
import { promptFinders } from '../../apps/server/src/modules/memories/memories.service.js';
import { pairKey, searchTerms } from '../../apps/server/src/modules/memories/terms.js';

const here = path.dirname(fileURLToPath(import.meta.url));
const probes = (
  JSON.parse(fs.readFileSync(path.join(here, '../data/memory-probes.json'), 'utf8')) as { probes: { text: string }[] }
).probes;
const client = postgres(process.env.MEMORY_EXPLAIN_URL!, { max: 1, onnotice: () => {} });
const [pair] =
  await client`select u.id as user_id, b.id as bot_id from users u, bots b where u.username = 'bench' and b.slug = 'bench-speed'`;
const userId = pair!.user_id as string;
const botId = pair!.bot_id as string;
const key = pairKey(userId, botId);
const dialect = new PgDialect();
const reply = 'The' + ' moon'.repeat(15);
const turns = (i: number) => [
  probes[(i + probes.length - 1) % probes.length]!.text,
  reply,
  probes[i % probes.length]!.text,
];
const statement = (i: number, newestFinds: boolean) => {
  const query = turns(i).join('\n').slice(-2000);
  const terms = searchTerms(query).map((t) => `${key}:${t}`);
  const finders = newestFinds ? promptFinders(turns(i), query, key) : undefined;
  return dialect.sqlToQuery(
    repo.rankedByWords(userId, botId, terms, { pinned: 8, limit: 300, top: 40, now: new Date(), finders }),
  );
};
const ways = { 'every term finds (before)': false, 'the newest turn finds (after)': true };
const run = (q: { sql: string; params: unknown[] }) => client.unsafe(q.sql, q.params as never[], { prepare: true });
for (let i = 0; i < 60; i++) for (const w of Object.values(ways)) await run(statement(i, w));
const out: Record<string, { cpu: number; wall: number[]; candidates: number[]; exec: number[] }> = {};
for (const name of Object.keys(ways)) out[name] = { cpu: 0, wall: [], candidates: [], exec: [] };
for (let block = 0; block < 12; block++) {
  const order = Object.entries(ways);
  if (block % 2) order.reverse();
  for (const [name, w] of order) {
    const cpu = process.cpuUsage();
    for (let i = block * 25; i < block * 25 + 25; i++) {
      const t0 = performance.now();
      const rows = await run(statement(i, w));
      out[name]!.wall.push(performance.now() - t0);
      out[name]!.candidates.push(Number(rows.find((r) => r.src === 'c')?.n ?? 0));
    }
    const used = process.cpuUsage(cpu);
    out[name]!.cpu += used.user + used.system;
  }
}
for (let i = 0; i < probes.length; i++)
  for (const [name, w] of Object.entries(ways)) {
    const q = statement(i, w);
    let best = Infinity;
    for (let r = 0; r < 3; r++) {
      const [plan] = await client.unsafe(`explain (analyze, timing off, format json) ${q.sql}`, q.params as never[]);
      best = Math.min(best, (plan!['QUERY PLAN'] as { 'Execution Time': number }[])[0]!['Execution Time']);
    }
    out[name]!.exec.push(best);
  }
const q = (xs: number[], p: number) =>
  [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.floor(p * xs.length))]!;
for (const [name, o] of Object.entries(out))
  console.log(
    `${name}: candidates p50 ${q(o.candidates, 0.5)} (p90 ${q(o.candidates, 0.9)}); execution p50 ${q(o.exec, 0.5).toFixed(3)} / p90 ${q(o.exec, 0.9).toFixed(3)} ms; ` +
      `the process ${(o.cpu / o.wall.length / 1000).toFixed(3)} ms CPU a statement; wall p50 ${q(o.wall, 0.5).toFixed(2)} / p99 ${q(o.wall, 0.99).toFixed(2)} ms (${o.wall.length} statements)`,
  );
await client.end();
