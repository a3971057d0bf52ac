import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import type { FastifyInstance } from 'fastify';
import { createTestApp } from '../../../test/helpers.js';
import { createUser } from '../../../test/factories.js';

/**
 * Every route under `/api/admin`, read from the app's own route tree (`printRoutes`), so that
 * routes other sections add are covered without listing them here.
 */
function adminRoutes(app: FastifyInstance): { method: string; url: string }[] {
  const lines = app.printRoutes({ commonPrefix: false }).split('\n');
  const stack: string[] = [];
  const routes: { method: string; url: string }[] = [];
  for (const line of lines) {
    const match = /^([│├└─\s]*)(\S.*?)(?: \(([^)]+)\))?$/.exec(line);
    if (!match || !match[2]) continue;
    const depth = Math.max(0, Math.round(match[1]!.length / 4) - 1);
    stack.length = depth;
    const path = (depth > 0 ? (stack[depth - 1] ?? '') : '') + match[2];
    stack[depth] = path;
    if (!match[3] || !path.startsWith('/api/admin')) continue;
    for (const method of match[3].split(',').map((m) => m.trim())) {
      if (method === 'HEAD' || method === 'OPTIONS') continue;
      routes.push({ method, url: path.replace(/:[A-Za-z_]+/g, randomUUID()) });
    }
  }
  return routes;
}

describe('admin routes: 401 for a guest, 403 for a user, before anything else', async () => {
  const { app, database } = await createTestApp();
  const routes = adminRoutes(app);

  it('finds the admin routes in the app', () => {
    const urls = routes.map((r) => `${r.method} ${r.url.replace(/[0-9a-f-]{36}/g, ':id')}`);
    for (const expected of [
      'GET /api/admin/overview',
      'GET /api/admin/users',
      'GET /api/admin/users/:id',
      'POST /api/admin/users/:id/desires',
      'POST /api/admin/users/:id/ban',
      'POST /api/admin/users/:id/unban',
      'POST /api/admin/users/:id/end-sessions',
      'POST /api/admin/users/:id/role',
      'POST /api/admin/users/:id/delete',
      'GET /api/admin/payments',
      'GET /api/admin/webhook-deliveries',
      'GET /api/admin/ledger',
      'GET /api/admin/ledger/check',
      'GET /api/admin/audit',
    ])
      expect(urls).toContain(expected);
  });

  it.each([
    ['guest', 401],
    ['user', 403],
  ] as const)('every admin route answers %s with %i', async (who, status) => {
    const headers = who === 'user' ? (await createUser(app, database.db)).auth : {};
    for (const route of routes) {
      const res = await app.inject({
        method: route.method as 'GET',
        url: route.url,
        headers: { ...headers, 'content-type': 'application/json' },
        payload: route.method === 'GET' || route.method === 'DELETE' ? undefined : '{}',
      });
      expect(res.statusCode, `${route.method} ${route.url}`).toBe(status);
    }
  });
});
