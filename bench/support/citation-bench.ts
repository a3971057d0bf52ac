// The citation benchmark's worker (bench/suites/memory.mjs runs it with tsx; docs/memory.md
// "Citations"): precision and recall of the two ways the "remembered" mark finds the memories a
// reply drew on, on the labelled probe set bench/data/citation-probes.json.
//  - overlap (MEMORY_CITATIONS=overlap): the server's own `drewOn` on the 400 labelled replies
//    (truth by construction: literal and paraphrased use of the asked memory, none, "forgot").
//  - model (MEMORY_CITATIONS=model): only with BENCH_LLM_URL (an OpenAI-compatible /v1 base URL;
//    BENCH_LLM_MODEL, BENCH_LLM_KEY): the model answers each probe turn with the labelled
//    memories and the citation instruction the server sends; its marker is read with the
//    server's own CitationStream; truth = the memory the turn asks about. Overlap is measured on
//    the same model replies against the same truth, so both methods meet on equal ground.
// Prints one JSON line.
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import {
  CITATION_INSTRUCTION,
  CitationStream,
  labelledLine,
} from '../../apps/server/src/modules/memories/citations.js';
import { drewOn } from '../../apps/server/src/modules/memories/retrieval.js';

interface Case {
  id: string;
  lang: string;
  asked: string;
  memories: { id: string; text: string }[];
  probe: string;
  replies: { style: string; text: string; truth: string[] }[];
}
const here = path.dirname(fileURLToPath(import.meta.url));
const { cases } = JSON.parse(fs.readFileSync(path.join(here, '../data/citation-probes.json'), 'utf8')) as {
  cases: Case[];
};

class Score {
  tp = 0;
  fp = 0;
  fn = 0;
  add(predicted: Set<string>, truth: Set<string>, all: string[]) {
    for (const id of all) {
      if (predicted.has(id) && truth.has(id)) this.tp++;
      else if (predicted.has(id)) this.fp++;
      else if (truth.has(id)) this.fn++;
    }
  }
  get precision() {
    return this.tp + this.fp ? this.tp / (this.tp + this.fp) : 1;
  }
  get recall() {
    return this.tp + this.fn ? this.tp / (this.tp + this.fn) : 1;
  }
  json() {
    return { precision: this.precision, recall: this.recall, tp: this.tp, fp: this.fp, fn: this.fn };
  }
}

const byOverlap = (memories: Case['memories'], reply: string) =>
  new Set(memories.filter((m) => drewOn(m.text, reply)).map((m) => m.id));

// Overlap on the labelled replies.
const overlap = new Score();
const overlapByStyle: Record<string, Score> = {};
const overlapByLang: Record<string, Score> = {};
for (const c of cases) {
  for (const reply of c.replies) {
    const predicted = byOverlap(c.memories, reply.text);
    const truth = new Set(reply.truth);
    const ids = c.memories.map((m) => m.id);
    overlap.add(predicted, truth, ids);
    (overlapByStyle[reply.style] ??= new Score()).add(predicted, truth, ids);
    (overlapByLang[c.lang] ??= new Score()).add(predicted, truth, ids);
  }
}

// The model's own citations, when an endpoint is given.
async function modelRun(url: string) {
  const model = process.env.BENCH_LLM_MODEL ?? 'default';
  const limit = Number(process.env.BENCH_LLM_CASES ?? cases.length);
  const cited = new Score();
  const overlapSame = new Score();
  let failed = 0;
  let markers = 0;
  const started = performance.now();
  for (const c of cases.slice(0, limit)) {
    const system = [
      "You are Mia, Alex's warm and playful companion. Answer in Alex's language, in one to three sentences.",
      '',
      '# What Mia remembers about Alex (long-term memory)',
      CITATION_INSTRUCTION,
      ...c.memories.map((m, i) => labelledLine(m.text, i)),
    ].join('\n');
    let text = '';
    try {
      const res = await fetch(`${url.replace(/\/+$/, '')}/chat/completions`, {
        method: 'POST',
        headers: {
          'content-type': 'application/json',
          ...(process.env.BENCH_LLM_KEY ? { authorization: `Bearer ${process.env.BENCH_LLM_KEY}` } : {}),
        },
        body: JSON.stringify({
          model,
          messages: [
            { role: 'system', content: system },
            { role: 'user', content: c.probe },
          ],
          max_tokens: 160,
          temperature: 0,
          stream: false,
        }),
        signal: AbortSignal.timeout(120_000),
      });
      if (!res.ok) throw new Error(String(res.status));
      const body = (await res.json()) as { choices?: { message?: { content?: string } }[] };
      text = body.choices?.[0]?.message?.content ?? '';
    } catch {
      failed++;
      continue;
    }
    const stream = new CitationStream();
    const shown = stream.push(text) + stream.end();
    if (stream.cited.size || /\[\[\s*cite/i.test(text)) markers++;
    const ids = c.memories.map((m) => m.id);
    const truth = new Set([c.asked]);
    cited.add(new Set([...stream.cited].map((i) => ids[i]).filter((id): id is string => Boolean(id))), truth, ids);
    overlapSame.add(byOverlap(c.memories, shown), truth, ids);
  }
  return {
    model,
    cases: Math.min(limit, cases.length),
    failed,
    withMarker: markers,
    seconds: (performance.now() - started) / 1000,
    cited: cited.json(),
    overlapOnModelReplies: overlapSame.json(),
  };
}

const url = process.env.BENCH_LLM_URL;
const model = url ? await modelRun(url) : null;
console.log(
  JSON.stringify({
    cases: cases.length,
    replies: cases.length * 4,
    overlap: overlap.json(),
    overlapByStyle: Object.fromEntries(Object.entries(overlapByStyle).map(([k, s]) => [k, s.json()])),
    overlapByLang: Object.fromEntries(Object.entries(overlapByLang).map(([k, s]) => [k, s.json()])),
    model,
  }),
);
