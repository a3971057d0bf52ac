// The benches' client for event streams (the chat's sends, the fake model asked directly):
// node:http with keep-alive, the same code whichever server it reads.
import http from 'node:http';

const agent = new http.Agent({ keepAlive: true, maxSockets: Infinity });

/**
 * POSTs `body` and reads the event stream to its end. Resolves with the time to the first
 * chunk containing `marker`, to the end, and how many times the marker came (`count`: the
 * server's `delta` events, one per network read of the model's stream that brought text);
 * `onFirst` runs when the marker arrives.
 */
export function streamPost(url, headers, body, marker, { onFirst, check } = {}) {
  return new Promise((resolve, reject) => {
    const started = performance.now();
    const payload = JSON.stringify(body);
    const req = http.request(
      url,
      {
        method: 'POST',
        agent,
        headers: { 'content-type': 'application/json', 'content-length': Buffer.byteLength(payload), ...headers },
      },
      (res) => {
        let tail = '';
        let first = null;
        let count = 0;
        res.setEncoding('utf8');
        res.on('data', (chunk) => {
          const text = tail + chunk;
          if (first === null && text.includes(marker)) {
            first = performance.now() - started;
            onFirst?.();
          }
          // Only the markers that end in this chunk: those in the tail were counted before.
          for (let at = text.indexOf(marker); at !== -1; at = text.indexOf(marker, at + 1))
            if (at + marker.length > tail.length) count++;
          tail = text.slice(-400);
        });
        res.on('end', () => {
          const total = performance.now() - started;
          if (res.statusCode !== 200) reject(new Error(`${url}: ${res.statusCode} ${tail}`));
          else if (first === null) reject(new Error(`${url}: no "${marker}" in the answer: ${tail}`));
          else if (check && !check(tail)) reject(new Error(`${url}: the reply did not finish: ${tail}`));
          else resolve({ first, total, count });
        });
        res.on('error', reject);
      },
    );
    req.on('error', reject);
    req.end(payload);
  });
}
