// The server's own time per request, read from its request log (Fastify's "incoming request"
// and "request completed" lines at LOG_LEVEL=info: `responseTime` runs from the request's
// arrival to the last byte handed to the socket). A client's round trip on the same two cores
// adds its own HTTP work and scheduling to that; suites that state a "server time" target
// measure it here and keep the round trip beside it.

/**
 * Marks the server's log now; `times()` then answers the requests completed since, in order,
 * as `{ url, ms }`.
 * @param {{ logs: () => string }} server
 */
export function serverLogMark(server) {
  const start = server.logs().length;
  return {
    times() {
      const text = server.logs();
      if (text.length < start) throw new Error('the server log was trimmed during a measure: fewer rounds');
      const urls = new Map();
      const done = [];
      for (const line of text.slice(start).split('\n')) {
        if (!line.startsWith('{')) continue;
        let entry;
        try {
          entry = JSON.parse(line);
        } catch {
          continue;
        }
        if (entry.msg === 'incoming request' && entry.req?.url) urls.set(entry.reqId, entry.req.url);
        else if (entry.msg === 'request completed' && typeof entry.responseTime === 'number')
          done.push({ url: urls.get(entry.reqId) ?? '', ms: entry.responseTime });
      }
      return done;
    },
  };
}
