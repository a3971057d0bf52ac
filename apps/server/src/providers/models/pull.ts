import { createHash, randomBytes } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { sleep } from '@reverie/shared';

/**
 * Pulling model files on first use (local speech recognition, the local voice; the language
 * model shares the host probe and the progress log): plain HTTP(S) downloads into
 * `DATA_DIR/models/…`, each written to a temporary file beside its destination and renamed
 * into place only when complete and checked, so a file under its final name is always whole.
 */

export interface PullLog {
  info(msg: string): void;
  warn(msg: string): void;
}

export interface ModelFile {
  url: string;
  /** The destination, relative to the pull's folder (`tiny-encoder.int8.onnx`, `espeak-ng-data/phontab`). */
  name: string;
  /** Bytes, when known: a file of another size is refused (and progress is counted in bytes). */
  size?: number;
  /** Hex SHA-256, when known: a file with another digest is refused. */
  sha256?: string;
}

/** Whole-pull progress: 0–1, or null while the sizes are not known yet. */
export type PullProgress = (fraction: number | null, detail: { downloaded: number; total: number | null }) => void;

export interface PullOptions {
  signal?: AbortSignal;
  onProgress?: PullProgress;
  log?: PullLog;
  /** What is pulled, for the log (`the speech recognition model whisper-base`). */
  label?: string;
  /** Attempts per file when the transfer breaks off (resumed where it stopped); default 3. */
  attempts?: number;
  /** Milliseconds without a byte before an attempt is given up; default 60 000. */
  stallMs?: number;
  /** Milliseconds before retrying a broken transfer (doubled each time); default 1000. */
  retryDelayMs?: number;
}

export class PullError extends Error {
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = 'PullError';
  }
}

/** Whether every file is already in place (no network needed). */
export function pulled(dir: string, files: readonly ModelFile[]): boolean {
  return files.every((file) => {
    try {
      const stat = fs.statSync(path.join(dir, file.name));
      return stat.isFile() && (file.size === undefined || stat.size === file.size);
    } catch {
      return false;
    }
  });
}

/**
 * Downloads the files missing from `dir` (one after the other) and resolves with their
 * paths. The host is probed first, so that a server without internet fails in seconds.
 * A transfer that breaks off is resumed (HTTP Range) up to `attempts` times; whatever
 * fails, the temporary file is removed and the error says why.
 */
export async function pullFiles(
  dir: string,
  files: readonly ModelFile[],
  options: PullOptions = {},
): Promise<string[]> {
  const targets = files.map((file) => safeJoin(dir, file.name));
  const missing = files.filter((file) => !pulled(dir, [file]));
  if (missing.length === 0) return targets;

  const hosts = [...new Set(missing.map((file) => new URL(file.url).origin))];
  for (const host of hosts) await probeHost(host, options.signal);

  const knownTotal = missing.every((file) => file.size !== undefined)
    ? missing.reduce((sum, file) => sum + file.size!, 0)
    : null;
  let doneBytes = 0;
  let doneFiles = 0;
  const report = (current: number, currentTotal: number | null) => {
    if (!options.onProgress) return;
    const downloaded = doneBytes + current;
    if (knownTotal !== null)
      options.onProgress(Math.min(1, downloaded / knownTotal), { downloaded, total: knownTotal });
    else {
      const within = currentTotal ? current / currentTotal : 0;
      options.onProgress(Math.min(1, (doneFiles + within) / missing.length), { downloaded, total: null });
    }
  };
  if (options.log && options.label)
    options.log.info(
      `downloading ${options.label} (${missing.length} file${missing.length > 1 ? 's' : ''}` +
        `${knownTotal ? `, ${megabytes(knownTotal)} MB` : ''}) into ${dir}`,
    );
  report(0, null);
  for (const file of missing) {
    const size = await pullOne(file, safeJoin(dir, file.name), options, report);
    doneBytes += size;
    doneFiles += 1;
  }
  report(0, null);
  return targets;
}

async function pullOne(
  file: ModelFile,
  target: string,
  options: PullOptions,
  report: (current: number, total: number | null) => void,
): Promise<number> {
  const attempts = Math.max(1, options.attempts ?? 3);
  const stallMs = options.stallMs ?? 60_000;
  fs.mkdirSync(path.dirname(target), { recursive: true });
  // Unique per process and pull: two replicas sharing DATA_DIR never write the same file.
  const temp = `${target}.${process.pid}-${randomBytes(4).toString('hex')}.part`;
  let lastError: unknown;
  try {
    for (let attempt = 1; attempt <= attempts; attempt++) {
      options.signal?.throwIfAborted();
      try {
        await transfer(file, temp, stallMs, options.signal, report);
        const size = fs.statSync(temp).size;
        if (file.size !== undefined && size !== file.size)
          throw new PullError(`${file.name}: got ${size} bytes, expected ${file.size}`);
        if (file.sha256) {
          const digest = await sha256(temp);
          if (digest !== file.sha256.toLowerCase())
            throw new PullError(`${file.name}: the SHA-256 is ${digest}, expected ${file.sha256}`);
        }
        fs.renameSync(temp, target);
        return size;
      } catch (error) {
        lastError = error;
        // A wrong answer (404, a bad checksum) does not get better by asking again.
        if (options.signal?.aborted || !(error instanceof TransientError)) break;
        if (attempt < attempts) {
          options.log?.warn(`download of ${file.name} broke off (${message(error)}); retrying`);
          await sleep((options.retryDelayMs ?? 1000) * 2 ** (attempt - 1), options.signal);
        }
      }
    }
  } finally {
    fs.rmSync(temp, { force: true });
  }
  if (options.signal?.aborted) throw new PullError('the download was cancelled', { cause: lastError });
  throw new PullError(`cannot download ${file.url}: ${message(lastError)}`, { cause: lastError });
}

/** A failure worth another attempt: the connection broke, stalled or the server had a hiccup (5xx). */
class TransientError extends Error {}

/** Appends the file's bytes to `temp`, resuming from its current length when the server allows. */
async function transfer(
  file: ModelFile,
  temp: string,
  stallMs: number,
  signal: AbortSignal | undefined,
  report: (current: number, total: number | null) => void,
): Promise<void> {
  const have = fs.existsSync(temp) ? fs.statSync(temp).size : 0;
  const stalled = new AbortController();
  let watchdog = setTimeout(() => stalled.abort(), stallMs);
  const combined = signal ? AbortSignal.any([signal, stalled.signal]) : stalled.signal;
  let response: Response;
  try {
    response = await fetch(file.url, {
      headers: have > 0 ? { range: `bytes=${have}-` } : {},
      redirect: 'follow',
      signal: combined,
    });
  } catch (error) {
    clearTimeout(watchdog);
    if (signal?.aborted) throw error;
    throw new TransientError(stalled.signal.aborted ? `no answer for ${stallMs / 1000} s` : networkReason(error));
  }
  if (response.status >= 500 || response.status === 429) {
    clearTimeout(watchdog);
    await response.body?.cancel();
    throw new TransientError(`the server answered ${response.status}`);
  }
  if (response.status !== 200 && response.status !== 206) {
    clearTimeout(watchdog);
    await response.body?.cancel();
    throw new PullError(`the server answered ${response.status}`);
  }
  const resumed = response.status === 206 && have > 0;
  const length = Number(response.headers.get('content-length')) || null;
  const total = length === null ? (file.size ?? null) : resumed ? have + length : length;
  const out = fs.openSync(temp, resumed ? 'a' : 'w');
  let written = resumed ? have : 0;
  try {
    if (!response.body) throw new TransientError('the answer has no body');
    for await (const chunk of response.body as unknown as AsyncIterable<Uint8Array>) {
      clearTimeout(watchdog);
      watchdog = setTimeout(() => stalled.abort(), stallMs);
      fs.writeSync(out, chunk);
      written += chunk.length;
      report(written, total);
    }
  } catch (error) {
    if (signal?.aborted || error instanceof PullError) throw error;
    throw new TransientError(stalled.signal.aborted ? `no data for ${stallMs / 1000} s` : networkReason(error));
  } finally {
    clearTimeout(watchdog);
    fs.closeSync(out);
  }
  if (length !== null && written !== total)
    throw new TransientError(`the transfer stopped at ${written} of ${total} bytes`);
}

/** A file name inside `dir`; a name that climbs out of it (`../x`) is refused. */
function safeJoin(dir: string, name: string): string {
  const target = path.resolve(dir, name);
  if (!target.startsWith(path.resolve(dir) + path.sep)) throw new PullError(`${name} is not a file name inside ${dir}`);
  return target;
}

/**
 * Fails fast (10 s at most) when a host cannot be reached at all: downloaders otherwise
 * retry a refused connection for minutes, and an offline server should say so at once.
 */
export async function probeHost(origin: string, signal?: AbortSignal): Promise<void> {
  const target = new URL(origin).origin + '/';
  try {
    const timeout = AbortSignal.timeout(10_000);
    const response = await fetch(target, {
      method: 'HEAD',
      signal: signal ? AbortSignal.any([timeout, signal]) : timeout,
    });
    await response.body?.cancel();
  } catch (error) {
    throw new PullError(`cannot reach ${target} (${networkReason(error)})`, { cause: error });
  }
}

/**
 * A progress reporter for the log: one line when the pull starts, then a bar every 5 % (at
 * most every 2 s), and the last line at 100 %.
 */
export function progressLogger(log: PullLog, label: string): PullProgress {
  let lastLogged = 0;
  let lastPercent = -1;
  return (fraction, { downloaded, total }) => {
    if (fraction === null) return;
    const percent = Math.floor(fraction * 100);
    const now = Date.now();
    if (percent === 100 ? percent === lastPercent : percent < lastPercent + 5 || now - lastLogged < 2000) return;
    lastLogged = now;
    lastPercent = percent;
    log.info(
      `downloading ${label} ${progressBar(percent)} ${percent}% ${megabytes(downloaded)}` +
        `${total ? ` of ${megabytes(total)}` : ''} MB`,
    );
  };
}

export function progressBar(percent: number): string {
  const filled = Math.round(Math.min(100, Math.max(0, percent)) / 5);
  return `[${'#'.repeat(filled)}${'.'.repeat(20 - filled)}]`;
}

export function megabytes(bytes: number): string {
  return (bytes / 1_000_000).toFixed(bytes < 10_000_000 ? 1 : 0);
}

async function sha256(file: string): Promise<string> {
  const hash = createHash('sha256');
  for await (const chunk of fs.createReadStream(file)) hash.update(chunk as Buffer);
  return hash.digest('hex');
}

function networkReason(error: unknown): string {
  const cause = (error as { cause?: { code?: string; message?: string } }).cause;
  return cause?.code ?? cause?.message ?? message(error);
}

function message(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
