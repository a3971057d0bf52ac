// Long-term memory (issue 28, docs/memory.md "Benchmark"): recall@5 of the right memory on the
// probe set (bench/data/memory-probes.json: 300 planted facts, 300 probes, five languages) with
// full-text search alone and with the deterministic test embedder; then retrieval time for one
// turn (by words, and with embeddings: the pair's memories hold 256-dimension vectors) with
// MEMORY_BENCH_PAIR memories for the pair (20 000) and MEMORY_BENCH_TABLE in the
// table (1 000 000) on PostgreSQL (a scratch database of BENCH_DATABASE_URL). The work runs in
// bench/support/memory-bench.ts (tsx: it calls the server's own retrieval code). Then, on the
// same database, the send's added time to first token (sendTtft): the built server against a
// fake model, sends in a chat with the pair of 20 000 memories and in one with a character
// that has none, interleaved; the difference of their medians is what the memories add.
import { spawn } from 'node:child_process';
import { randomBytes, randomUUID } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import postgres from 'postgres';
import { accessToken, insertSession, withScratchDatabase } from '../support/postgres.mjs';
import { startFakeModel } from '../support/fake-model.mjs';
import { cpuSeconds } from '../support/process-idle.mjs';
import { median, percentile } from '../support/stats.mjs';
import { streamPost } from '../support/stream-post.mjs';

export const name = 'memory';
export const description =
  'memory citations (precision/recall: overlap, the model), recall@5 (full-text, embeddings) and retrieval time with 20 000 / 1 000 000 memories';

function worker(repoRoot, env, script = 'bench/support/memory-bench.ts') {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['--import', 'tsx', path.join(repoRoot, script)], {
      cwd: path.join(repoRoot, 'apps/server'),
      env: { ...process.env, ...env },
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    let out = '';
    child.stdout.on('data', (chunk) => (out += chunk));
    child.on('error', reject);
    child.on('close', (code) => {
      const line = out.trim().split('\n').at(-1) ?? '';
      if (code !== 0) reject(new Error(`${path.basename(script)} exited with ${code}`));
      else resolve(JSON.parse(line));
    });
  });
}

/** Sends measured in each chat (after TTFT_WARMUP each), interleaved A B B A. */
const TTFT_SENDS = Number(process.env.MEMORY_BENCH_SENDS ?? 100);
const TTFT_WARMUP = 10;

/**
 * The send's added time to first token with 20 000 memories for the pair (issue 28): the built
 * server on the bench's database, the bench user's chats with the character of 20 000
 * memories (A) and with one of none (B); each send's text is a probe turn (the same for the A
 * and the B of a pair), so the search finds candidates as a real turn does. Interleaved A B B A
 * with a pause after each send; the fake model alone is asked as often for reference.
 * `embeddings`: the server is given LLM_EMBEDDINGS_MODEL, and the fake answers `/v1/embeddings`
 * with the test embedder's vectors (bench/support/fake-model.mjs); without it the server has no
 * `embed` and never calls the endpoint. The fake's request counts say which calls were made.
 */
export async function sendTtft(repoRoot, startServer, url, log, { embeddings = false } = {}) {
  const fake = await startFakeModel();
  const secret = randomBytes(32).toString('hex');
  const server = await startServer({
    env: {
      DATABASE_URL: url,
      JWT_SECRET: secret,
      LOG_LEVEL: 'warn',
      LLM_PROVIDER: 'openai',
      LLM_BASE_URL: fake.url,
      LLM_MODEL: 'bench-model',
      LLM_MAX_TOKENS: '2000',
      CHAT_MESSAGES_PER_MINUTE: '100000000',
      RATE_LIMIT_PER_MINUTE: '100000000',
      // No extraction job during the run (it is off the hot path, and the fake answers no operations).
      MEMORY_EXTRACT_DELAY_S: '3600',
      ...(embeddings ? { LLM_EMBEDDINGS_MODEL: 'bench-embed' } : {}),
    },
  });
  const sql = postgres(url, { max: 1, onnotice: () => {} });
  const made = [];
  try {
    const [user] =
      await sql`update users set age = 30, is_email_confirmed = true where username = 'bench' returning id`;
    const bots =
      await sql`update bots set author_id = ${user.id} where slug in ('bench-speed', 'bench-empty') returning id, slug`;
    const token = await accessToken(secret, user.id, {
      sid: await insertSession((text, params) => sql.unsafe(text, params), user.id),
    });
    const auth = { authorization: `Bearer ${token}` };
    const chatWith = async (slug) => {
      const res = await fetch(`${server.url}/api/chat/create`, {
        method: 'POST',
        headers: { ...auth, 'content-type': 'application/json' },
        body: JSON.stringify({ botID: bots.find((b) => b.slug === slug).id }),
      });
      if (!res.ok) throw new Error(`chat/create: ${res.status} ${await res.text()}`);
      const { id } = await res.json();
      made.push(id);
      return id;
    };
    const withMemories = await chatWith('bench-speed');
    const without = await chatWith('bench-empty');
    const probes = JSON.parse(fs.readFileSync(path.join(repoRoot, 'bench/data/memory-probes.json'), 'utf8')).probes;
    const send = (chatId, i) =>
      streamPost(
        `${server.url}/api/chat/${chatId}/messages`,
        auth,
        { client_id: randomUUID(), text: probes[i % probes.length].text },
        'event: delta',
        { check: (tail) => tail.includes('"state":"done"') },
      ).then((r) => r.first);
    const askFake = () =>
      streamPost(
        `${fake.url}/chat/completions`,
        {},
        { model: 'bench-model', stream: true, messages: [{ role: 'user', content: 'Hello' }] },
        '"content"',
      ).then((r) => r.first);
    for (let i = 0; i < TTFT_WARMUP; i++) {
      await send(withMemories, i);
      await send(without, i);
      await askFake();
    }
    const a = [];
    const b = [];
    const direct = [];
    // The CPU of each send (request to the reply's end): the server's, and that of its
    // PostgreSQL backends (this database's, read from /proc; Linux only, else not reported).
    const backends = (await sql`select pid from pg_stat_activity where datname = current_database()`).map((r) => r.pid);
    const cpuNow = () => {
      const node = cpuSeconds(server.child.pid);
      const pg = backends.reduce((sum, pid) => sum + (cpuSeconds(pid) ?? 0), 0);
      return node === null ? null : { node, pg };
    };
    const cpu = { a: { node: 0, pg: 0 }, b: { node: 0, pg: 0 } };
    for (let i = 0; i < TTFT_SENDS * 2; i++) {
      const inA = i % 4 === 0 || i % 4 === 3;
      const before = cpuNow();
      (inA ? a : b).push(await send(inA ? withMemories : without, TTFT_WARMUP + Math.floor(i / 2)));
      const after = cpuNow();
      if (before && after) {
        cpu[inA ? 'a' : 'b'].node += after.node - before.node;
        cpu[inA ? 'a' : 'b'].pg += after.pg - before.pg;
      }
      direct.push(await askFake());
      await new Promise((r) => setTimeout(r, 20));
    }
    const perSend = (c, n) => ({ node: (c.node * 1000) / n, pg: (c.pg * 1000) / n });
    const fakeP50 = median(direct);
    log(
      `memory (embeddings ${embeddings ? 'on' : 'off'}): first token p50 with 20 000 memories ${median(a).toFixed(2)} ms, without ${median(b).toFixed(2)} ms, the fake alone ${fakeP50.toFixed(2)} ms; requests to the fake: ${JSON.stringify(fake.requests)}`,
    );
    return {
      embeddingRequests: fake.requests.embeddings,
      added: median(a) - median(b),
      withP50: median(a) - fakeP50,
      withP99: percentile(a, 0.99) - fakeP50,
      withoutP50: median(b) - fakeP50,
      withoutP99: percentile(b, 0.99) - fakeP50,
      sends: a.length,
      // ms of CPU a send (to the reply's end), with memories and without: the server, PostgreSQL.
      cpuWith: perSend(cpu.a, a.length),
      cpuWithout: perSend(cpu.b, b.length),
    };
  } finally {
    await server.stop();
    // The run's chats go: their summaries (folded as they outgrow the context) would otherwise
    // become memories of both pairs at the next server's start (the summary import), and the
    // pair "without memories" of a second run would have some.
    if (made.length) await sql`delete from chats where id in ${sql(made)}`.catch(() => {});
    await sql.end().catch(() => {});
    await fake.close();
  }
}

/** The send's figures of one `sendTtft` run (null: not run). */
function ttftRows(t, what) {
  if (!t)
    return [
      {
        label: `send's added time to first token, 20 000 memories vs none (${what})`,
        value: 0,
        unit: 'ms',
        note: 'skipped: no server (run through npm run bench) or MEMORY_BENCH_SENDS=0',
      },
    ];
  return [
    {
      label: `send's added time to first token, 20 000 memories vs none, medians (${what})`,
      value: t.added,
      unit: 'ms',
      target: { max: 1 },
      note: `${t.sends} sends each, interleaved A B B A, ${t.embeddingRequests} embedding requests; added over the fake: with memories p50 ${t.withP50.toFixed(2)} / p99 ${t.withP99.toFixed(2)} ms, without p50 ${t.withoutP50.toFixed(2)} / p99 ${t.withoutP99.toFixed(2)} ms; CPU a send to its reply's end, with / without: the server ${t.cpuWith.node.toFixed(2)} / ${t.cpuWithout.node.toFixed(2)} ms, its PostgreSQL backends ${t.cpuWith.pg.toFixed(2)} / ${t.cpuWithout.pg.toFixed(2)} ms`,
    },
  ];
}

const pct = (x) => `${(x * 100).toFixed(0)} %`;

/**
 * Citations (docs/memory.md "Citations"): precision and recall of the "remembered" mark's two
 * methods on the labelled set bench/data/citation-probes.json — overlap always; the model's own
 * citations only against a real endpoint (BENCH_LLM_URL), never a fake.
 */
async function citationRows(repoRoot, log) {
  const c = await worker(repoRoot, {}, 'bench/support/citation-bench.ts');
  const styles = Object.entries(c.overlapByStyle)
    .map(([style, s]) => `${style} P ${pct(s.precision)} R ${pct(s.recall)}`)
    .join('; ');
  const rows = [
    {
      label: `citations by overlap: precision (${c.replies} labelled replies)`,
      value: c.overlap.precision,
      unit: '',
      note: styles,
    },
    {
      label: 'citations by overlap: recall',
      value: c.overlap.recall,
      unit: '',
      note: `TP ${c.overlap.tp}, FP ${c.overlap.fp}, FN ${c.overlap.fn}`,
    },
  ];
  if (!c.model) {
    log(
      '  citations asked of the model: skipped — set BENCH_LLM_URL to an OpenAI-compatible /v1 endpoint (BENCH_LLM_MODEL) to measure them',
    );
    rows.push({
      label: 'citations asked of the model',
      value: 0,
      unit: '',
      note: 'skipped: BENCH_LLM_URL is not set (no model on this machine is measured as one)',
    });
    return rows;
  }
  const m = c.model;
  const note = `${m.model}: ${m.cases} probe turns, ${m.failed} failed, ${m.withMarker} with a marker, ${m.seconds.toFixed(0)} s`;
  rows.push(
    { label: 'citations asked of the model: precision', value: m.cited.precision, unit: '', note },
    { label: 'citations asked of the model: recall', value: m.cited.recall, unit: '', note },
    {
      label: 'citations by overlap on the same model replies: precision',
      value: m.overlapOnModelReplies.precision,
      unit: '',
    },
    {
      label: 'citations by overlap on the same model replies: recall',
      value: m.overlapOnModelReplies.recall,
      unit: '',
    },
  );
  return rows;
}

export async function run({ repoRoot, startServer, log }) {
  const citations = await citationRows(repoRoot, log);
  if (!fs.existsSync(path.join(repoRoot, 'bench/data/memory-probes.json'))) {
    log(
      '  retrieval: skipped — bench/data/memory-probes.json is missing (node bench/data/make-memory-probes.mjs writes it)',
    );
    return [
      ...citations,
      { label: 'memory retrieval', value: 0, unit: 'ms', note: 'skipped: bench/data/memory-probes.json is missing' },
    ];
  }
  const result = await withScratchDatabase('reverie_bench_memory', log, async (url) => {
    const figures = await worker(repoRoot, { MEMORY_BENCH_URL: url });
    // The send's figures need the built server (the bench runner's startServer).
    const sends = startServer && process.env.MEMORY_BENCH_SENDS !== '0';
    const ttft = sends ? await sendTtft(repoRoot, startServer, url, log) : null;
    const ttftEmbed = sends ? await sendTtft(repoRoot, startServer, url, log, { embeddings: true }) : null;
    return { ...figures, ttft, ttftEmbed };
  });
  if (!result)
    return [...citations, { label: 'memory retrieval', value: 0, unit: 'ms', note: 'skipped: no PostgreSQL' }];
  const langs = (byLang) =>
    Object.entries(byLang)
      .map(([lang, r]) => `${lang} ${r.toFixed(2)}`)
      .join(', ');
  return [
    ...citations,
    {
      label: 'recall@5, full-text search',
      value: result.recallFts,
      unit: '',
      target: { min: 0.9 },
      note: langs(result.recallFtsByLang),
    },
    {
      label: 'recall@5, with the test embedder',
      value: result.recallEmbed,
      unit: '',
      target: { min: 0.95 },
      note: langs(result.recallEmbedByLang),
    },
    {
      label:
        "recall@5 with a send's three turns (the previous probe, the fake's reply, the probe), full-text / test embedder",
      value: result.recallFtsSend,
      unit: '',
      note: `full-text ${langs(result.recallFtsSendByLang)}; with the test embedder ${result.recallEmbedSend.toFixed(2)} (${langs(result.recallEmbedSendByLang)})`,
    },
    {
      label: `retrieval for one turn, p99 (${result.pairRows} for the pair, ${result.tableRows} in the table)`,
      value: result.p99,
      unit: 'ms',
      target: { max: 10 },
      note: `p50 ${result.p50.toFixed(2)} ms; filled in ${result.fillSeconds.toFixed(0)} s`,
    },
    {
      label: `retrieval for one turn with embeddings, p99 (the pair's memories with ${result.vectorDims}-dimension vectors; the turn's own embedding made in the process)`,
      value: result.embedP99,
      unit: 'ms',
      target: { max: 10 },
      note: `p50 ${result.embedP50.toFixed(2)} ms`,
    },
    {
      label: 'retrieval for one turn, pair without memories, p50 (time added to a send with nothing to find)',
      value: result.emptyP50,
      unit: 'ms',
      note: `p99 ${result.emptyP99.toFixed(2)} ms`,
    },
    ...ttftRows(result.ttft, 'embeddings off'),
    ...ttftRows(result.ttftEmbed, 'embeddings on: /v1/embeddings of the test embedder'),
  ];
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const repoRoot = path.resolve(path.dirname(new URL(import.meta.url).pathname), '../..');
  console.log(await run({ repoRoot, log: console.log }));
}
