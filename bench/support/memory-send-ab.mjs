// The send's added time to first token with memories (issue 28), two server builds in turns on
// one database the memory bench filled (`bench/support/memory-explain.ts` with
// MEMORY_EXPLAIN_URL, or BENCH_KEEP_DATABASE=1 npm run bench -- memory): `sendTtft` of
// bench/suites/memory.mjs (embeddings off) with the build of MEMORY_AB_BEFORE and that of
// MEMORY_AB_AFTER (server.js paths), alternating, MEMORY_AB_ROUNDS rounds (2) each; prints each
// run's added time and `uptime`'s load. A diagnostic; the figures of record are the suite's.
// Run: MEMORY_BENCH_URL=postgres://…/<db> MEMORY_AB_BEFORE=… MEMORY_AB_AFTER=… node bench/support/memory-send-ab.mjs
import os from 'node:os';
import { repoRoot, startServer } from '../../e2e/support/app-server.mjs';
import { waitIdle } from './process-idle.mjs';
import { sendTtft } from '../suites/memory.mjs';

const url = process.env.MEMORY_BENCH_URL;
const builds = { before: process.env.MEMORY_AB_BEFORE, after: process.env.MEMORY_AB_AFTER };
const rounds = Number(process.env.MEMORY_AB_ROUNDS ?? 2);
const start = async (options) => {
  const server = await startServer(options);
  await waitIdle(server.child.pid, () => {});
  return server;
};
const results = { before: [], after: [] };
for (let round = 0; round < rounds; round++) {
  const order = round % 2 ? ['after', 'before'] : ['before', 'after'];
  for (const name of order) {
    const load = os.loadavg()[0].toFixed(2);
    const t = await sendTtft(
      repoRoot,
      (o) => start({ ...o, entry: builds[name] }),
      url,
      () => {},
    );
    results[name].push(t.added);
    console.log(
      `${name}: added ${t.added.toFixed(2)} ms (with ${t.withP50.toFixed(2)}, without ${t.withoutP50.toFixed(2)} over the fake), CPU a send with / without: server ${t.cpuWith.node.toFixed(2)} / ${t.cpuWithout.node.toFixed(2)} ms, PostgreSQL ${t.cpuWith.pg.toFixed(2)} / ${t.cpuWithout.pg.toFixed(2)} ms; load ${load} → ${os.loadavg()[0].toFixed(2)}`,
    );
  }
}
for (const [name, r] of Object.entries(results)) console.log(`${name}: ${r.map((v) => v.toFixed(2)).join(', ')}`);
