import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

/** Who holds an embedded database (the lock file's content). */
export interface PgliteLockHolder {
  pid: number;
  /** `server`, `admin:create`, `db:migrate`, … */
  role: string;
  host: string;
  since: string;
}

/** Another live process holds the embedded database. */
export class DatabaseLockedError extends Error {
  readonly code = 'database_locked';
  constructor(
    readonly dir: string,
    readonly holder: PgliteLockHolder,
  ) {
    super(
      `The embedded database ${dir} is in use by process ${holder.pid} (${holder.role}, since ${holder.since}). ` +
        'Two processes must never open one PGlite directory: stop that process first, or use PostgreSQL (DATABASE_URL) ' +
        'to run several. (npm run admin:create / admin:ban / admin:unban go through a running server by themselves.)',
    );
    this.name = 'DatabaseLockedError';
  }
}

/** The lock file of a PGlite directory: beside it, `<dir>.lock`. */
export const pgliteLockFile = (dir: string) => `${path.resolve(dir)}.lock`;

/** Lock files this process holds now. */
const held = new Set<string>();
let exitHookInstalled = false;
/** The holder touches its lock this often; another machine's lock untouched for `FOREIGN_STALE_MS` is stale. */
const HEARTBEAT_MS = 10_000;
const FOREIGN_STALE_MS = 30_000;
const heartbeats = new Map<string, NodeJS.Timeout>();

/**
 * Whether the process that wrote a lock lives. On this machine its pid says so; a pid of
 * another machine (a container sharing the data volume, where pid 1 is everyone's) says
 * nothing, so there the lock's heartbeat decides.
 */
function holderAlive(file: string, holder: PgliteLockHolder): boolean {
  if (holder.host && holder.host !== os.hostname()) {
    const touched = fs.statSync(file, { throwIfNoEntry: false })?.mtimeMs ?? 0;
    return Date.now() - touched < FOREIGN_STALE_MS;
  }
  return alive(holder.pid);
}

function alive(pid: number): boolean {
  if (!Number.isInteger(pid) || pid <= 0) return false;
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

function readHolder(file: string): { raw: string; holder: PgliteLockHolder | null } | null {
  let raw: string;
  try {
    raw = fs.readFileSync(file, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return null;
    throw error;
  }
  try {
    const parsed = JSON.parse(raw) as Partial<PgliteLockHolder>;
    if (typeof parsed.pid !== 'number') return { raw, holder: null };
    return {
      raw,
      holder: {
        pid: parsed.pid,
        role: String(parsed.role ?? 'unknown'),
        host: String(parsed.host ?? ''),
        since: String(parsed.since ?? ''),
      },
    };
  } catch {
    return { raw, holder: null };
  }
}

/**
 * The live holder of a PGlite directory, or null when nobody (or a dead process) holds it.
 * A lock written by this very process id but not held by this process is a previous life's
 * (a container restarted with the same pid), so it is stale too.
 */
export function pgliteLockHolder(dir: string): PgliteLockHolder | null {
  const file = pgliteLockFile(dir);
  const found = readHolder(file);
  if (!found?.holder) return null;
  const { holder } = found;
  if (holder.pid === process.pid && holder.host === os.hostname()) return held.has(file) ? holder : null;
  return holderAlive(file, holder) ? holder : null;
}

/**
 * Takes the lock of a PGlite directory for this process: a file created exclusively beside
 * it with this process's id. A live holder makes it throw `DatabaseLockedError` naming it; a
 * lock left by a dead process (kill -9, a crash) is taken over. Answers the release.
 */
export function acquirePgliteLock(dir: string, role: string): () => void {
  const file = pgliteLockFile(dir);
  fs.mkdirSync(path.dirname(file), { recursive: true });
  const me: PgliteLockHolder = { pid: process.pid, role, host: os.hostname(), since: new Date().toISOString() };
  for (let attempt = 0; attempt < 5; attempt++) {
    try {
      const fd = fs.openSync(file, 'wx', 0o600);
      try {
        fs.writeSync(fd, JSON.stringify(me));
      } finally {
        fs.closeSync(fd);
      }
      held.add(file);
      const beat = setInterval(() => {
        const now = new Date();
        try {
          fs.utimesSync(file, now, now);
        } catch {
          // Released or removed: the next acquire tells.
        }
      }, HEARTBEAT_MS);
      beat.unref();
      heartbeats.set(file, beat);
      installExitHook();
      return () => releasePgliteLock(file);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
    }
    const found = readHolder(file);
    if (!found) continue; // released meanwhile
    const { holder, raw } = found;
    if (!holder) {
      // Being written right now (or garbage): give a writer a moment, then take it over.
      const age = Date.now() - (fs.statSync(file, { throwIfNoEntry: false })?.mtimeMs ?? 0);
      if (age < 2000)
        throw new DatabaseLockedError(path.resolve(dir), { pid: 0, role: 'unknown', host: '', since: '' });
    } else if (
      held.has(file) ||
      ((holder.pid !== process.pid || holder.host !== os.hostname()) && holderAlive(file, holder))
    ) {
      throw new DatabaseLockedError(path.resolve(dir), holder);
    }
    // Stale: removed only if it still is the lock we judged (another taker may have replaced it).
    const again = readHolder(file);
    if (again && again.raw === raw) fs.rmSync(file, { force: true });
  }
  throw new DatabaseLockedError(
    path.resolve(dir),
    readHolder(file)?.holder ?? { pid: 0, role: 'unknown', host: '', since: '' },
  );
}

function releasePgliteLock(file: string): void {
  clearInterval(heartbeats.get(file));
  heartbeats.delete(file);
  if (!held.delete(file)) return;
  const found = readHolder(file);
  if (found?.holder?.pid === process.pid) fs.rmSync(file, { force: true });
}

function installExitHook() {
  if (exitHookInstalled) return;
  exitHookInstalled = true;
  process.on('exit', () => {
    for (const file of [...held]) releasePgliteLock(file);
  });
}
