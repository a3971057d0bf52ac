// The read floor of the trickled chat bench (issue 25): a Node process that only READS the
// fake model's trickled streams — node:http with a keep-alive agent, as
// apps/server/src/providers/llm/openai.ts asks the model — splits each read into SSE lines and
// parses each `data:` line's JSON, and does nothing else (no client to write to, no database).
// Its CPU per token is what any Node server must spend per token when a model trickles, so it
// says whether a per-token target is reachable at all on the machine. Driven over IPC:
// { url, body, tokens, replies, concurrency } → it answers { done: replies } when all are read.
import http from 'node:http';
import { TextDecoder } from 'node:util';

const agent = new http.Agent({ keepAlive: true, keepAliveMsecs: 10_000 });

/** Reads one streamed completion to `[DONE]`; resolves with the number of content pieces. */
function readOne(url, payload) {
  return new Promise((resolve, reject) => {
    const request = http.request(
      url,
      {
        method: 'POST',
        agent,
        headers: {
          'content-type': 'application/json',
          accept: 'text/event-stream',
          'content-length': String(Buffer.byteLength(payload)),
        },
      },
      (response) => {
        const decoder = new TextDecoder();
        let tail = '';
        let pieces = 0;
        let done = false;
        response.on('data', (bytes) => {
          const lines = (tail + decoder.decode(bytes, { stream: true })).split('\n');
          tail = lines.pop();
          for (const line of lines) {
            if (!line.startsWith('data:')) continue;
            const data = line.slice(5).trim();
            if (data === '[DONE]') done = true;
            else if (JSON.parse(data).choices?.[0]?.delta?.content) pieces++;
          }
        });
        response.on('end', () => (done ? resolve(pieces) : reject(new Error('stream ended before [DONE]'))));
        response.on('error', reject);
      },
    );
    request.on('error', reject);
    request.end(payload);
  });
}

process.on('message', async ({ url, body, replies, concurrency }) => {
  const payload = JSON.stringify(body);
  let next = 0;
  let pieces = 0;
  const worker = async () => {
    while (next < replies) {
      next++;
      const read = await readOne(url, payload);
      pieces += read;
    }
  };
  try {
    await Promise.all(Array.from({ length: concurrency }, worker));
    process.send({ done: replies, pieces });
  } catch (error) {
    process.send({ error: String(error) });
  }
});
process.send({ ready: true });
