// What ranking by words in the statement saves a retrieval (docs/memory.md "Retrieval"): on a
// database the memory bench kept (BENCH_KEEP_DATABASE=1 npm run bench -- memory; its URL in
// MEMORY_EXPLAIN_URL), one turn's memories read as the prompt reads them with embeddings off
// (`forPrompt`: the statement ranked by words, 40 rows) and as ranking every candidate does
// (`promptCandidates`, then `rankMemories` in the process), in alternating blocks of 50 turns in
// one process: Node's CPU per retrieval and the wall time. Turns: a send's three (the previous
// probe, a reply, the next probe), or the bench's two with MEMORY_AB_TURNS=2. A diagnostic, not
// a figure of record. Run from apps/server: node --import tsx ../../bench/support/memory-ranked-ab.ts
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { sql } from 'drizzle-orm';
import { openDatabase, rowsOf } from '../../apps/server/src/db/client.js';
import * as repo from '../../apps/server/src/modules/memories/memories.repository.js';
import { standaloneMemories } from '../../apps/server/test/standalone-memories.js';
import { rankMemories, selectForPrompt } from '../../apps/server/src/modules/memories/retrieval.js';
import { pairKey, searchTerms } from '../../apps/server/src/modules/memories/terms.js';

const here = path.dirname(fileURLToPath(import.meta.url));
const probes = (
  JSON.parse(fs.readFileSync(path.join(here, '../data/memory-probes.json'), 'utf8')) as { probes: { text: string }[] }
).probes;
const handle = await openDatabase({ url: process.env.MEMORY_EXPLAIN_URL!, poolSize: 4 });
const db = handle.db;
const [pair] = rowsOf<{ user_id: string; bot_id: string }>(
  await db.execute(
    sql`select u.id as user_id, b.id as bot_id from users u, bots b where u.username = 'bench' and b.slug = 'bench-speed'`,
  ),
);
const { user_id: userId, bot_id: botId } = pair!;
const service = standaloneMemories(db);
const reply = 'The' + ' moon'.repeat(15);
const turns = (i: number) =>
  process.env.MEMORY_AB_TURNS === '2'
    ? [probes[i % probes.length]!.text, 'And what else?']
    : [probes[(i + probes.length - 1) % probes.length]!.text, reply, probes[i % probes.length]!.text];
const byWords = (i: number) => service.forPrompt({ userId, botId, turns: turns(i), budgetTokens: 600 });
const everyCandidate = async (i: number) => {
  const key = pairKey(userId, botId);
  const terms = searchTerms(turns(i).join('\n').slice(-2000)).map((t) => `${key}:${t}`);
  const { pinned, candidates } = await repo.promptCandidates(db, userId, botId, terms, { pinned: 8, limit: 300 });
  const ranked = rankMemories({ pinned, candidates, total: Math.max(candidates.length * 4, 50), now: new Date() });
  return selectForPrompt(pinned, ranked, 600, 12);
};
const ways = { 'every candidate': everyCandidate, 'ranked by words': byWords };
const times: Record<string, { wall: number[]; cpu: number }> = {};
for (const name of Object.keys(ways)) times[name] = { wall: [], cpu: 0 };
for (let i = 0; i < 100; i++) for (const f of Object.values(ways)) await f(i);
const blocks = Number(process.env.MEMORY_AB_BLOCKS ?? 16);
for (let block = 0; block < blocks; block++) {
  const order = Object.entries(ways);
  if (block % 2) order.reverse();
  for (const [name, f] of order) {
    const cpu = process.cpuUsage();
    for (let i = 0; i < 50; i++) {
      const t0 = performance.now();
      await f(block * 50 + i);
      times[name]!.wall.push(performance.now() - t0);
    }
    const used = process.cpuUsage(cpu);
    times[name]!.cpu += used.user + used.system;
  }
}
for (const [name, { wall, cpu }] of Object.entries(times)) {
  wall.sort((a, b) => a - b);
  const q = (p: number) => wall[Math.min(wall.length - 1, Math.floor(p * wall.length))]!.toFixed(2);
  console.log(
    `${name}: Node CPU ${(cpu / wall.length / 1000).toFixed(3)} ms a retrieval; wall p50 ${q(0.5)} p90 ${q(0.9)} p99 ${q(0.99)} ms (${wall.length} turns)`,
  );
}
await handle.close();
