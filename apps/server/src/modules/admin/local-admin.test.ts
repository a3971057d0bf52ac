import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { sql } from 'drizzle-orm';
import { rowsOf } from '../../db/client.js';
import { OPERATOR_ACTOR } from './audit.repository.js';
import { runOperatorCli } from '../../cli/operator.js';
import { acquirePgliteLock } from '../../db/pglite-lock.js';
import { createTestApp, testConfig, type TestApp } from '../../../test/helpers.js';
import { LOCAL_ADMIN_KEY_HEADER, localAdminKeyPath, writeLocalAdminKey } from './local-admin.js';

/**
 * `npm run admin:create` while the server runs on PGlite: the server holds the data directory
 * (its lock) and wrote its local key; the command goes through it, and the running server
 * sees the administrator at once.
 */
const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'reverie-local-admin-'));
const config = testConfig({ DATA_DIR: dataDir });
const onPglite = inject('testDb').kind === 'pglite';
let t: TestApp;
let release: () => void = () => {};

beforeAll(async () => {
  if (!onPglite) return;
  t = await createTestApp({ env: { DATA_DIR: dataDir, AUTH_RATE_LIMIT_IP_PER_MINUTE: '1000' } });
  // As server.ts does on PGlite: hold DATA_DIR/pglite, listen, write the key file.
  release = acquirePgliteLock(path.join(dataDir, 'pglite'), 'server');
  await t.app.listen({ host: '127.0.0.1', port: 0 });
  const { port } = t.app.server.address() as AddressInfo;
  writeLocalAdminKey(dataDir, { pid: process.pid, url: `http://127.0.0.1:${port}`, key: t.app.localAdminKey });
});

afterAll(() => release());

const call = (options: { remoteAddress?: string; key?: string; headers?: Record<string, string> }) =>
  t.app.inject({
    method: 'POST',
    url: '/api/local/admin',
    remoteAddress: options.remoteAddress ?? '127.0.0.1',
    headers: { ...(options.key ? { [LOCAL_ADMIN_KEY_HEADER]: options.key } : {}), ...options.headers },
    payload: { action: 'create', email: 'intruder@example.test', password: 'secret-secret' },
  });

describe.runIf(onPglite)('admin:create through a running server (PGlite)', () => {
  it('the key file is readable by its owner only', () => {
    expect(fs.statSync(localAdminKeyPath(dataDir)).mode & 0o777).toBe(0o600);
  });

  it('creates the administrator in the running server, who can sign in and use the console at once', async () => {
    const result = await runOperatorCli(config, {
      action: 'create',
      email: 'first-admin@example.test',
      password: 'a-long-password',
      name: 'Owner',
    });
    expect(result).toMatchObject({ outcome: 'created', via: 'server', exitCode: 0 });
    expect(result.message).toContain('first-admin@example.test');

    const login = await t.app.inject({
      method: 'POST',
      url: '/api/token',
      payload: { email: 'first-admin@example.test', password: 'a-long-password' },
    });
    expect(login.statusCode).toBe(200);
    const { access } = login.json() as { access: string };
    const adminCall = await t.app.inject({
      method: 'GET',
      url: '/api/admin/takedown/count',
      headers: { authorization: `Bearer ${access}` },
    });
    expect(adminCall.statusCode).toBe(200);

    // The operator's command is in the audit log, named as the command line.
    const audit = rowsOf<{ action: string; actor_email: string }>(
      await t.database.db.execute(sql`select action, actor_email from audit_log where action = 'user.create_admin'`),
    );
    expect(audit).toEqual([{ action: 'user.create_admin', actor_email: OPERATOR_ACTOR }]);

    // Idempotent: again, it promotes (already an administrator).
    expect((await runOperatorCli(config, { action: 'create', email: 'first-admin@example.test' })).outcome).toBe(
      'promoted',
    );
  });

  it('bans and unbans through the server: the banned account is signed out at once', async () => {
    await runOperatorCli(config, { action: 'create', email: 'second@example.test', password: 'another-password' });
    const login = await t.app.inject({
      method: 'POST',
      url: '/api/token',
      payload: { email: 'second@example.test', password: 'another-password' },
    });
    const auth = { authorization: `Bearer ${(login.json() as { access: string }).access}` };
    expect((await t.app.inject({ method: 'GET', url: '/api/profile', headers: auth })).statusCode).toBe(200);
    const banned = await runOperatorCli(config, { action: 'ban', email: 'second@example.test', reason: 'Testing' });
    expect(banned).toMatchObject({ outcome: 'banned', via: 'server' });
    expect((await t.app.inject({ method: 'GET', url: '/api/profile', headers: auth })).statusCode).toBe(401);
    expect((await runOperatorCli(config, { action: 'unban', email: 'second@example.test' })).outcome).toBe('unbanned');
    expect((await runOperatorCli(config, { action: 'ban', email: 'nobody@example.test' })).exitCode).toBe(1);
  });

  it('refuses a caller that is not local, sent through a proxy, or without the right key (403)', async () => {
    const key = t.app.localAdminKey;
    expect((await call({ key: `${key}x` })).statusCode).toBe(403);
    expect((await call({})).statusCode).toBe(403);
    expect((await call({ key, remoteAddress: '203.0.113.7' })).statusCode).toBe(403);
    expect((await call({ key, headers: { 'x-forwarded-for': '203.0.113.7' } })).statusCode).toBe(403);
    // The right key from the machine itself works.
    expect((await call({ key })).statusCode).toBe(200);
  });
});

describe.runIf(!onPglite)('on PostgreSQL', () => {
  it('has no local operator route: the command writes to the shared database itself (404)', async () => {
    const postgresApp = await createTestApp();
    const response = await postgresApp.app.inject({
      method: 'POST',
      url: '/api/local/admin',
      remoteAddress: '127.0.0.1',
      headers: { [LOCAL_ADMIN_KEY_HEADER]: postgresApp.app.localAdminKey },
      payload: { action: 'create', email: 'intruder@example.test', password: 'secret-secret' },
    });
    expect(response.statusCode).toBe(404);
  });
});
