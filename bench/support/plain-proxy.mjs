// A plain proxy peer for the chat bench (issue 12's reference): it saves nothing, checks
// nothing — each POST is forwarded to the model ($PROXY_UPSTREAM, keep-alive) and the model's
// event stream is piped back as it comes. What the chat server does beyond this (auth, the
// database's statements, the rules of the chat engine) is what its figures cost on top.
import http from 'node:http';

const upstream = new URL(process.env.PROXY_UPSTREAM);
const agent = new http.Agent({ keepAlive: true, maxSockets: Infinity });

const server = http.createServer((req, res) => {
  const chunks = [];
  req.on('data', (chunk) => chunks.push(chunk));
  req.on('end', () => {
    const body = Buffer.concat(chunks);
    const out = http.request(
      upstream,
      {
        method: 'POST',
        agent,
        headers: { 'content-type': 'application/json', 'content-length': body.length },
      },
      (answer) => {
        res.writeHead(answer.statusCode ?? 502, { 'content-type': 'text/event-stream', 'cache-control': 'no-store' });
        answer.pipe(res);
      },
    );
    out.on('error', () => res.destroy());
    out.end(body);
  });
});
server.keepAliveTimeout = 60_000;
server.listen(0, '127.0.0.1', () => process.send?.({ port: server.address().port }));
