import {
  LlmError,
  type GenerateRequest,
  type LlmProvider,
  type ModelEntry,
  type ProviderStatus,
} from '../src/providers/llm/llm.js';

/** What the scripted model does on its next generations. */
export type Script =
  /** Streams these pieces (with `delayMs` between them). */
  | { mode: 'pieces'; pieces: string[]; delayMs?: number }
  /** Streams these pieces, then waits until aborted (stop, disconnect, timeout tests). */
  | { mode: 'then-hang'; pieces: string[] }
  /** Streams these pieces, then ends when `release` resolves (a reply that outlasts what a test does). */
  | { mode: 'held'; pieces: string[]; release: Promise<void> }
  /** Fails at once with an LlmError. */
  | { mode: 'fail'; code?: string };

/** Waits for `until` (a promise or a number of milliseconds); an abort rejects at once. */
const wait = (until: number | Promise<void>, signal: AbortSignal) =>
  new Promise<void>((resolve, reject) => {
    const onAbort = () => {
      clearTimeout(timer);
      reject(signal.reason instanceof Error ? signal.reason : new Error('aborted'));
    };
    // The listener goes when the wait ends: a long reply's waits must not pile up on its signal.
    const done = () => {
      clearTimeout(timer);
      signal.removeEventListener('abort', onAbort);
      resolve();
    };
    const timer = typeof until === 'number' ? setTimeout(done, until) : undefined;
    if (typeof until !== 'number') void until.then(done);
    signal.addEventListener('abort', onAbort, { once: true });
  });

/**
 * A language model for route tests: deterministic, instant, scriptable. It implements the
 * same `LlmProvider` interface the real providers do (those are tested on their own against
 * a fake OpenAI server and a tiny GGUF model).
 */
export class ScriptedLlm implements LlmProvider {
  script: Script = { mode: 'pieces', pieces: ['Hello', ' there', '!'] };
  requests: GenerateRequest[] = [];
  currentStatus: ProviderStatus = { ready: true };
  /**
   * Like the real providers' idle timeout: a `then-hang` script fails with `timeout` after this
   * long without a piece (never by default).
   */
  idleTimeoutMs = Number.POSITIVE_INFINITY;
  catalogue: ModelEntry[] = [
    { id: 'test-small', label: 'Test small', provider: 'openai', contextSize: 4096, premium: false },
    { id: 'test-premium', label: 'Test premium', provider: 'openai', contextSize: 8192, premium: true },
  ];
  /** Resolves the next time a generation starts (tests wait on it). */
  private startedWaiters: (() => void)[] = [];

  models(): ModelEntry[] {
    return this.catalogue;
  }

  status(): ProviderStatus {
    return this.currentStatus;
  }

  countTokens(_model: string, text: string): number {
    return Math.ceil(text.length / 4);
  }

  nextStart(): Promise<void> {
    return new Promise((resolve) => this.startedWaiters.push(resolve));
  }

  async *generate(request: GenerateRequest): AsyncIterable<string> {
    this.requests.push(request);
    for (const resolve of this.startedWaiters.splice(0)) resolve();
    const script = this.script;
    if (script.mode === 'fail') throw new LlmError(script.code ?? 'provider_error', 'The scripted model failed');
    for (const piece of script.pieces) {
      if (request.signal.aborted) return;
      if (script.mode === 'pieces' && script.delayMs) await wait(script.delayMs, request.signal);
      else await Promise.resolve();
      yield piece;
    }
    if (script.mode === 'held') await wait(script.release, request.signal);
    if (script.mode === 'then-hang') {
      if (!Number.isFinite(this.idleTimeoutMs)) await wait(3_600_000, request.signal);
      else {
        await wait(this.idleTimeoutMs, request.signal);
        throw new LlmError('timeout', 'The scripted model sent nothing for too long');
      }
    }
  }
}

/** One parsed server-sent event; `data` is loosely typed for terse test assertions. */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export type SseEvent = { event: string; data: any };

/** Parses a `text/event-stream` body into events. */
export function parseSse(body: string): SseEvent[] {
  const events: SseEvent[] = [];
  for (const block of body.split('\n\n')) {
    let event = 'message';
    const data: string[] = [];
    for (const line of block.split('\n')) {
      if (line.startsWith('event: ')) event = line.slice(7);
      else if (line.startsWith('data: ')) data.push(line.slice(6));
    }
    if (data.length) events.push({ event, data: JSON.parse(data.join('\n')) });
  }
  return events;
}
