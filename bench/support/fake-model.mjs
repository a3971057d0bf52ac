// A fake OpenAI-compatible model for the benches that measure the server, not the model's pace:
// every answer is a 16-token reply written at once (the chat bench has its own trickling one).
import http from 'node:http';

const chunkOf = (delta, finish = null) =>
  `data: ${JSON.stringify({ id: 'bench', object: 'chat.completion.chunk', created: 0, model: 'bench-model', choices: [{ index: 0, delta, finish_reason: finish }] })}\n\n`;
const REPLY = Array.from({ length: 16 }, (_, i) => chunkOf({ content: i ? ' moon' : 'The' })).join('');
const END = chunkOf({}, 'stop') + 'data: [DONE]\n\n';

export function startFakeModel() {
  const server = http.createServer((req, res) => {
    req.resume();
    req.on('end', () => {
      res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' });
      res.end(REPLY + END);
    });
  });
  return new Promise((resolve) =>
    server.listen(0, '127.0.0.1', () =>
      resolve({
        url: `http://127.0.0.1:${server.address().port}/v1`,
        close: () => {
          server.closeAllConnections();
          return new Promise((r) => server.close(r));
        },
      }),
    ),
  );
}
