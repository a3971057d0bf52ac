import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { openDatabase } from './client.js';
import { DatabaseLockedError, acquirePgliteLock, pgliteLockFile, pgliteLockHolder } from './pglite-lock.js';

const tempDir = () => fs.mkdtempSync(path.join(os.tmpdir(), 'reverie-lock-'));

/** A process that lives until killed (its pid holds a lock "from another process"). */
function otherProcess() {
  const child = spawn(process.execPath, ['-e', 'setInterval(() => {}, 1000)'], { stdio: 'ignore' });
  return {
    pid: child.pid!,
    stop: () =>
      new Promise<void>((resolve) => {
        child.once('exit', () => resolve());
        child.kill('SIGKILL');
      }),
  };
}

const writeLock = (dir: string, pid: number, role = 'server') =>
  fs.writeFileSync(
    pgliteLockFile(dir),
    JSON.stringify({ pid, role, host: os.hostname(), since: '2026-01-01T00:00:00.000Z' }),
  );

describe('the embedded database lock', () => {
  it('refuses a second opener with a message naming the holder, and frees the directory on close', async () => {
    const dir = path.join(tempDir(), 'pglite');
    const first = await openDatabase({ pgliteDir: dir, role: 'server' });
    try {
      expect(pgliteLockHolder(dir)).toMatchObject({ pid: process.pid, role: 'server' });
      const second = openDatabase({ pgliteDir: dir, role: 'admin:create' });
      await expect(second).rejects.toBeInstanceOf(DatabaseLockedError);
      await expect(second).rejects.toThrow(`in use by process ${process.pid} (server`);
    } finally {
      await first.close();
    }
    expect(fs.existsSync(pgliteLockFile(dir))).toBe(false);
    const again = await openDatabase({ pgliteDir: dir });
    await again.close();
  }, 60_000);

  it('refuses while another live process holds it, and takes over once that process is dead (kill -9)', async () => {
    const dir = path.join(tempDir(), 'pglite');
    const holder = otherProcess();
    writeLock(dir, holder.pid);
    try {
      expect(() => acquirePgliteLock(dir, 'admin:create')).toThrow(
        new RegExp(`in use by process ${holder.pid} \\(server, since 2026-01-01`),
      );
      expect(pgliteLockHolder(dir)?.pid).toBe(holder.pid);
    } finally {
      await holder.stop();
    }
    // The lock file is still there, but its process is gone: stale.
    expect(fs.existsSync(pgliteLockFile(dir))).toBe(true);
    expect(pgliteLockHolder(dir)).toBeNull();
    const release = acquirePgliteLock(dir, 'server');
    expect(JSON.parse(fs.readFileSync(pgliteLockFile(dir), 'utf8'))).toMatchObject({
      pid: process.pid,
      role: 'server',
    });
    release();
    expect(fs.existsSync(pgliteLockFile(dir))).toBe(false);
  });

  it('takes over a lock this pid left in a previous life (a restarted container) and an unreadable old one', () => {
    const dir = path.join(tempDir(), 'pglite');
    writeLock(dir, process.pid);
    const release = acquirePgliteLock(dir, 'server');
    release();
    fs.writeFileSync(pgliteLockFile(dir), 'garbage');
    const old = new Date(Date.now() - 60_000);
    fs.utimesSync(pgliteLockFile(dir), old, old);
    acquirePgliteLock(dir, 'server')();
  });

  it("keeps another machine's lock while its holder's heartbeat is fresh, and takes it over once it stops", () => {
    const dir = path.join(tempDir(), 'pglite');
    fs.mkdirSync(path.dirname(pgliteLockFile(dir)), { recursive: true });
    // A container sharing the volume: pid 1 there says nothing here.
    fs.writeFileSync(
      pgliteLockFile(dir),
      JSON.stringify({ pid: 1, role: 'server', host: 'another-container', since: '2026-01-01T00:00:00.000Z' }),
    );
    expect(pgliteLockHolder(dir)).toMatchObject({ host: 'another-container' });
    expect(() => acquirePgliteLock(dir, 'cli')).toThrow(DatabaseLockedError);
    const silent = new Date(Date.now() - 60_000);
    fs.utimesSync(pgliteLockFile(dir), silent, silent);
    expect(pgliteLockHolder(dir)).toBeNull();
    acquirePgliteLock(dir, 'server')();
  });
});
