// Builds and starts the real, built Reverie server the way a user runs it
// (`node apps/server/dist/server.js`), for the browser journeys and the benchmarks.
// Plain JavaScript so `node bench/run.mjs` can use it without a TypeScript loader.
import { spawn, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

export const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
export const webIndexHtml = path.join(repoRoot, 'apps/web/dist/index.html');
export const serverEntry = path.join(repoRoot, 'apps/server/dist/server.js');

/** Sources each build output is made from; a newer source means the output is stale. */
const BUILD_INPUTS = {
  [webIndexHtml]: [
    'apps/web/src',
    'apps/web/index.html',
    'apps/web/public',
    'apps/web/vite.config.ts',
    'packages/shared/src',
  ],
  [serverEntry]: ['apps/server/src', 'apps/server/build.mjs', 'packages/shared/src'],
};

function newestMtime(target) {
  let stat;
  try {
    stat = fs.statSync(target);
  } catch {
    return 0;
  }
  if (!stat.isDirectory()) return stat.mtimeMs;
  let newest = stat.mtimeMs;
  for (const entry of fs.readdirSync(target)) {
    if (entry === 'node_modules' || entry === 'dist') continue;
    newest = Math.max(newest, newestMtime(path.join(target, entry)));
  }
  return newest;
}

/**
 * Why the app needs building, or null when the build is present and newer than its sources.
 * Staleness matters: the locale files are copied into apps/web/dist at build time, so a
 * translation added after the last build would otherwise not be served.
 */
export function buildReason() {
  for (const [output, inputs] of Object.entries(BUILD_INPUTS)) {
    const relative = path.relative(repoRoot, output);
    if (!fs.existsSync(output)) return `${relative} is missing`;
    if (process.env.E2E_SKIP_STALE_CHECK === '1') continue;
    const built = fs.statSync(output).mtimeMs;
    const newestSource = Math.max(...inputs.map((input) => newestMtime(path.join(repoRoot, input))));
    if (newestSource > built) return `${relative} is older than its sources`;
  }
  return null;
}

/** Runs `npm run build` at the repository root when the build is missing or stale. */
export function ensureBuilt({ log = console.log } = {}) {
  const reason = buildReason();
  if (!reason) return false;
  log(`building the app (${reason})…`);
  const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm';
  // Vitest sets NODE_ENV=test, with which Vite would bundle React's development build.
  const env = Object.fromEntries(
    Object.entries(process.env).filter(([key]) => key !== 'NODE_ENV' && !key.startsWith('VITEST')),
  );
  const result = spawnSync(npm, ['run', 'build'], {
    cwd: repoRoot,
    env,
    stdio: ['ignore', 'pipe', 'pipe'],
    encoding: 'utf8',
  });
  if (result.status !== 0) {
    throw new Error(`npm run build failed (exit ${result.status}):\n${result.stdout}\n${result.stderr}`);
  }
  return true;
}

/** A TCP port nobody listens on right now. */
export function freePort() {
  return new Promise((resolve, reject) => {
    const probe = net.createServer();
    probe.unref();
    probe.on('error', reject);
    probe.listen(0, '127.0.0.1', () => {
      const { port } = /** @type {net.AddressInfo} */ (probe.address());
      probe.close(() => resolve(port));
    });
  });
}

/** A fresh, empty directory for the embedded database. */
export function makeDataDir(prefix = 'reverie-e2e-') {
  return fs.mkdtempSync(path.join(os.tmpdir(), prefix));
}

/** Servers still running; killed if this process goes away without stopping them. */
const untilExit = new Set();
process.on('exit', () => {
  for (const child of untilExit) child.kill('SIGKILL');
});

const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * @typedef {object} StartOptions
 * @property {'reverie' | 'amoura'} [appName]
 * @property {string} [dataDir]   parent of the PGlite database; a fresh temp dir by default
 * @property {number} [port]
 * @property {Record<string, string>} [env]  extra settings
 * @property {number} [timeoutMs]  how long to wait for /api/health
 * @property {number} [pollMs]
 * @property {string} [entry]  another build's server (bench/README.md: comparing two builds); the app's own by default
 */

/**
 * @typedef {object} RunningServer
 * @property {string} url            e.g. http://127.0.0.1:41234
 * @property {number} port
 * @property {string} dataDir
 * @property {boolean} ownsDataDir
 * @property {import('node:child_process').ChildProcess} child
 * @property {number} readyMs        spawn → first 200 from /api/health
 * @property {number | null} startupMs  the `startup_ms` the server logged
 * @property {() => string} logs     everything the server printed so far
 * @property {(options?: { removeData?: boolean }) => Promise<void>} stop
 */

/**
 * Starts the built server on a free port with its own data directory (PGlite: DATABASE_URL
 * is removed from its environment) and resolves once `/api/health` answers.
 * @param {StartOptions} [options]
 * @returns {Promise<RunningServer>}
 */
export async function startServer(options = {}) {
  const port = options.port ?? (await freePort());
  const ownsDataDir = !options.dataDir;
  const dataDir = options.dataDir ?? makeDataDir();
  const url = `http://127.0.0.1:${port}`;
  const env = { ...process.env };
  delete env.DATABASE_URL;
  Object.assign(env, {
    NODE_ENV: 'production',
    HOST: '127.0.0.1',
    PORT: String(port),
    PUBLIC_URL: url,
    DATA_DIR: dataDir,
    APP_NAME: options.appName ?? 'reverie',
    LOG_LEVEL: 'info',
    LOG_PRETTY: 'false',
    ...options.env,
  });

  const spawnedAt = performance.now();
  const child = spawn(process.execPath, [options.entry ?? serverEntry], {
    cwd: repoRoot,
    env,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  let startupMs = null;
  const collect = (chunk) => {
    const text = chunk.toString();
    output += text;
    if (startupMs === null) {
      const match = /"startup_ms":(\d+)/.exec(text);
      if (match) startupMs = Number(match[1]);
    }
    // Keep memory bounded on long runs (benchmarks log every request at info level).
    if (output.length > 2_000_000) output = output.slice(-1_000_000);
  };
  child.stdout.on('data', collect);
  child.stderr.on('data', collect);
  let exited = null;
  const exit = new Promise((resolve) => {
    child.on('exit', (code, signal) => {
      exited = { code, signal };
      resolve(exited);
    });
  });
  untilExit.add(child);
  exit.then(() => untilExit.delete(child));

  const removeData = () => {
    if (ownsDataDir) fs.rmSync(dataDir, { recursive: true, force: true });
  };

  /** @type {RunningServer['stop']} */
  const stop = async ({ removeData: remove = ownsDataDir } = {}) => {
    if (!exited) {
      child.kill('SIGTERM');
      const killed = await Promise.race([exit, sleep(10_000).then(() => null)]);
      if (!killed) {
        child.kill('SIGKILL');
        await exit;
      }
    }
    if (remove) removeData();
  };

  const timeoutMs = options.timeoutMs ?? 90_000;
  const pollMs = options.pollMs ?? 50;
  const deadline = spawnedAt + timeoutMs;
  for (;;) {
    if (exited) {
      removeData();
      throw new Error(`the server exited before it was ready (${JSON.stringify(exited)}):\n${output}`);
    }
    try {
      const response = await fetch(`${url}/api/health`, { signal: AbortSignal.timeout(2_000) });
      if (response.ok) {
        const body = await response.json();
        if (body?.status === 'ok') break;
      }
    } catch {
      // not listening yet
    }
    if (performance.now() > deadline) {
      await stop({ removeData: true });
      throw new Error(`the server did not answer /api/health within ${timeoutMs} ms:\n${output}`);
    }
    await sleep(pollMs);
  }
  const readyMs = performance.now() - spawnedAt;
  // startup_ms is logged right after listen; give the log line a moment to arrive.
  for (let i = 0; i < 20 && startupMs === null; i++) await sleep(25);

  return {
    url,
    port,
    dataDir,
    ownsDataDir,
    child,
    readyMs,
    get startupMs() {
      return startupMs;
    },
    logs: () => output,
    stop,
  };
}
