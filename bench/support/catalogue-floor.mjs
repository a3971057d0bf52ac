#!/usr/bin/env node
// The floor of the catalogue burst on this machine (bench/README.md "Bursts"): the same
// open-loop generator (bench/suites/catalogue-burst.mjs `burst`) against a bare server in its
// own process that answers `GET /api/bots/available` with fixed brotli bytes of the same size
// as the app's cached page and `/api/health` with a small JSON — no hooks, no validation,
// no routing beyond one comparison. `node bench/support/catalogue-floor.mjs [http|fastify]`.
import { spawn } from 'node:child_process';
import { burst } from '../suites/catalogue-burst.mjs';

const kind = process.argv[2] ?? 'http';
const BYTES = Number(process.env.BENCH_FLOOR_BYTES ?? 4200);

if (process.env.FLOOR_SERVER) {
  const crypto = await import('node:crypto');
  const body = crypto.randomBytes(BYTES);
  const health = Buffer.from('{"status":"ok"}');
  const send = (path, res) => {
    if (path.startsWith('/api/bots/available')) {
      res.writeHead(200, {
        'content-type': 'application/json; charset=utf-8',
        'content-encoding': 'br',
        vary: 'Accept-Encoding',
        'content-length': body.length,
      });
      res.end(body);
    } else {
      res.writeHead(200, { 'content-type': 'application/json; charset=utf-8', 'content-length': health.length });
      res.end(health);
    }
  };
  let server;
  if (kind === 'fastify') {
    const { default: Fastify } = await import('fastify');
    const app = Fastify({ trustProxy: true });
    app.get('/api/bots/available', async (_request, reply) =>
      reply
        .header('content-encoding', 'br')
        .header('vary', 'Accept-Encoding')
        .type('application/json; charset=utf-8')
        .send(body),
    );
    app.get('/api/health', async () => ({ status: 'ok' }));
    await app.listen({ port: 0, host: '127.0.0.1' });
    server = app.server;
  } else {
    const http = await import('node:http');
    server = http.createServer((req, res) => send(req.url, res));
    await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
  }
  process.send?.(server.address().port);
} else {
  const child = spawn(process.execPath, [new URL(import.meta.url).pathname, kind], {
    env: { ...process.env, FLOOR_SERVER: '1' },
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
  });
  const port = await new Promise((resolve) => child.once('message', resolve));
  const url = `http://127.0.0.1:${port}`;
  await burst(url, { rate: 50, seconds: 1, addresses: 5 });
  const fs = await import('node:fs');
  const cpu = () => {
    const fields = fs.readFileSync(`/proc/${child.pid}/stat`, 'utf8').split(') ')[1].split(' ');
    return (Number(fields[11]) + Number(fields[12])) / 100;
  };
  const before = cpu();
  const f = await burst(url);
  const cpuMs = ((cpu() - before) * 1000) / f.sent;
  console.log(
    `${kind} floor (load ${(await import('node:os')).loadavg()[0].toFixed(2)}): ${f.ok}/${f.sent} 200; p50 ${f.p50.toFixed(1)} ms, p99 ${f.p99.toFixed(1)} ms; health p99 ${f.healthP99.toFixed(1)} ms (max ${f.healthMax.toFixed(1)} ms, ${f.healthPolls} polls); server CPU ${cpuMs.toFixed(3)} ms a request`,
  );
  child.kill();
}
