// A fake OpenAI-compatible model for the benches that measure the server, not the model's pace:
// every chat completion is a 16-token reply written at once (the chat bench has its own
// trickling one). `POST /v1/embeddings` answers in the OpenAI wire format
// (`{object: 'list', data: [{object: 'embedding', index, embedding}], model, usage}`) with the
// deterministic test embedder of apps/server/test/fake-embedder.ts (256 dimensions, loaded
// through tsx on the first such request) — the same vectors the memory bench stores. `requests` counts the requests by
// path (`chat`, `embeddings`, `other`) so a suite can say which calls a run made.
import http from 'node:http';
import { tsImport } from 'tsx/esm/api';

const chunkOf = (delta, finish = null) =>
  `data: ${JSON.stringify({ id: 'bench', object: 'chat.completion.chunk', created: 0, model: 'bench-model', choices: [{ index: 0, delta, finish_reason: finish }] })}\n\n`;
const REPLY = Array.from({ length: 16 }, (_, i) => chunkOf({ content: i ? ' moon' : 'The' })).join('');
const END = chunkOf({}, 'stop') + 'data: [DONE]\n\n';

let embedder = null;
const loadEmbedder = () =>
  (embedder ??= tsImport('../../apps/server/test/fake-embedder.ts', import.meta.url).then((m) => m.fakeEmbedding));

function embeddings(body, res, fakeEmbedding) {
  let input;
  try {
    input = JSON.parse(body).input;
  } catch {
    input = undefined;
  }
  const texts = typeof input === 'string' ? [input] : Array.isArray(input) ? input : null;
  if (!texts || texts.some((t) => typeof t !== 'string')) {
    res.writeHead(400, { 'content-type': 'application/json' });
    res.end(
      JSON.stringify({
        error: { message: 'input must be a string or an array of strings', type: 'invalid_request_error' },
      }),
    );
    return;
  }
  const tokens = texts.reduce((n, t) => n + Math.ceil(t.length / 4), 0);
  res.writeHead(200, { 'content-type': 'application/json' });
  res.end(
    JSON.stringify({
      object: 'list',
      data: texts.map((t, index) => ({ object: 'embedding', index, embedding: fakeEmbedding(t) })),
      model: 'bench-embed',
      usage: { prompt_tokens: tokens, total_tokens: tokens },
    }),
  );
}

export function startFakeModel() {
  const requests = { chat: 0, embeddings: 0, other: 0 };
  const server = http.createServer((req, res) => {
    const chunks = [];
    req.on('data', (c) => chunks.push(c));
    req.on('end', () => {
      const path = (req.url ?? '').split('?')[0];
      if (req.method === 'POST' && path.endsWith('/embeddings')) {
        requests.embeddings += 1;
        loadEmbedder().then((fakeEmbedding) => embeddings(Buffer.concat(chunks).toString('utf8'), res, fakeEmbedding));
        return;
      }
      requests[path.endsWith('/chat/completions') ? 'chat' : 'other'] += 1;
      res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' });
      res.end(REPLY + END);
    });
  });
  return new Promise((resolve) =>
    server.listen(0, '127.0.0.1', () =>
      resolve({
        url: `http://127.0.0.1:${server.address().port}/v1`,
        requests,
        close: () => {
          server.closeAllConnections();
          return new Promise((r) => server.close(r));
        },
      }),
    ),
  );
}
