import type { FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';

export interface PublicUrlCheckOptions {
  /** PUBLIC_URL: where e-mail links, link previews and checkout returns point. */
  publicUrl: string;
}

const LOOPBACK = new Set(['localhost', '127.0.0.1', '[::1]', '::1']);

const defaultPort = (protocol: string) => (protocol === 'https:' ? '443' : '80');

/** `host[:port]` lower-cased, the scheme's default port made explicit. */
function normaliseHost(host: string, protocol: string): { name: string; port: string } {
  const lower = host.trim().toLowerCase();
  const match = /^(\[[^\]]+\]|[^:]+)(?::(\d+))?$/.exec(lower);
  return { name: match?.[1] ?? lower, port: match?.[2] ?? defaultPort(protocol) };
}

/**
 * Warns once, in the log, when requests arrive for a host other than PUBLIC_URL's: then the
 * links the server makes (verification and reset e-mails, checkout returns, link previews)
 * point somewhere else — with the default PUBLIC_URL, at localhost. The host is the one the
 * browser used: `Host`, or `X-Forwarded-Host` when TRUST_PROXY is on (Fastify's
 * `request.host`). Loopback against loopback (localhost, 127.0.0.1, ::1, whatever the port)
 * is not reported: such a site is only reachable from the machine itself, so no visitor gets
 * a broken link, and development proxies (Vite on :5173) rewrite the host to the API's port.
 * Health probes and
 * /metrics are skipped, as orchestrators call them by internal addresses.
 */
export const publicUrlCheckPlugin = fp<PublicUrlCheckOptions>(
  async (app, options) => {
    const expectedUrl = new URL(options.publicUrl);
    const expected = normaliseHost(expectedUrl.host, expectedUrl.protocol);
    let warned = false;
    /** The last host and scheme found to be PUBLIC_URL's (nearly every request has the same). */
    let lastSame: string | null = null;
    const check = (request: FastifyRequest) => {
      const path = request.url;
      if (path.startsWith('/api/health') || path.startsWith('/metrics')) return;
      const raw = request.host;
      if (!raw) return;
      const protocol = `${request.protocol}:`;
      const seen = `${protocol}//${raw}`;
      if (seen === lastSame) return;
      const actual = normaliseHost(raw, protocol);
      const same =
        (actual.name === expected.name && actual.port === expected.port) ||
        (LOOPBACK.has(actual.name) && LOOPBACK.has(expected.name));
      if (same) {
        lastSame = seen;
        return;
      }
      warned = true;
      app.log.warn(
        { public_url: expectedUrl.origin, request_host: raw },
        `PUBLIC_URL is ${expectedUrl.origin} but requests arrive for ${raw}: links in e-mails and checkout returns point at ${expectedUrl.origin}. Set PUBLIC_URL to the address people use (behind a reverse proxy also TRUST_PROXY=true so X-Forwarded-Host counts). This warning is shown once.`,
      );
    };
    app.addHook('onRequest', (request, _reply, done) => {
      if (!warned) check(request);
      done();
    });
  },
  { name: 'public-url-check' },
);
