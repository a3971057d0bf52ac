import { spawn, type ChildProcess } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const serverRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

/**
 * Starts a replica of the app in a child process (`test/replica-process.ts`) on the PostgreSQL
 * database at `databaseUrl`, with the settings `env` and the live-reply timings `live`; answers
 * its address once it listens. The caller kills it (SIGKILL in the tests of a dying replica).
 */
export async function startChildReplica(
  databaseUrl: string,
  env: Record<string, string>,
  live: object,
): Promise<{ url: string; child: ChildProcess }> {
  const child = spawn(process.execPath, ['--import', 'tsx', 'test/replica-process.ts'], {
    cwd: serverRoot,
    env: {
      ...process.env,
      REPLICA_DATABASE_URL: databaseUrl,
      REPLICA_ENV: JSON.stringify(env),
      REPLICA_LIVE: JSON.stringify(live),
    },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  const port = await listeningPort(child).catch((error: unknown) => {
    child.kill('SIGKILL');
    throw error;
  });
  return { url: `http://127.0.0.1:${port}`, child };
}

/** The port a child replica prints (`listening <port>` on its stdout) once it listens. */
export function listeningPort(child: ChildProcess): Promise<number> {
  return new Promise<number>((resolve, reject) => {
    let out = '';
    child.stdout!.on('data', (chunk: Buffer) => {
      out += chunk.toString();
      const match = /listening (\d+)/.exec(out);
      if (match) resolve(Number(match[1]));
    });
    child.once('exit', (code) => reject(new Error(`the replica exited (${code}) before listening`)));
  });
}
