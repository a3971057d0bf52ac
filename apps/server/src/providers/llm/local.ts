import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { ChatHistoryItem, Llama, LlamaChat, LlamaGrammar, LlamaModel } from 'node-llama-cpp';
import type * as NodeLlamaCppModule from 'node-llama-cpp';
import { megabytes, probeHost, progressLogger, pullFiles } from '../models/pull.js';
import {
  estimateTokens,
  LlmError,
  type GenerateRequest,
  type LlmProvider,
  type ModelEntry,
  type ProviderStatus,
} from './llm.js';

/** The module, imported on first use so that the openai provider never loads the native binding. */
type NodeLlamaCpp = typeof NodeLlamaCppModule;

export interface LlmLog {
  info(msg: string): void;
  warn(msg: string): void;
  error(msg: string): void;
}

export interface LocalLlmOptions {
  /** A GGUF file (LLM_MODEL_PATH); when unset, `modelUri` is pulled into `modelsDir`. */
  modelPath?: string;
  /** A node-llama-cpp model URI (`hf:owner/repo:quant`) or an https URL of a .gguf file. */
  modelUri: string;
  modelsDir: string;
  /** The catalogue id and label (LLM_MODEL); `local` and a name from the file when unset. */
  modelId?: string;
  /** The context window in tokens (capped at what the model was trained on). */
  contextSize: number;
  /** The temperature when a request gives none. */
  temperature: number;
  /** Milliseconds without a new piece (once a sequence is free) before a reply fails with `timeout`. */
  idleTimeoutMs?: number;
  /** CPU threads; the number of cores when unset. */
  threads?: number;
  /** Replies generated at once, one context sequence each; more requests wait their turn. */
  parallel: number;
  log: LlmLog;
}

type State =
  { kind: 'idle' } | { kind: 'loading'; detail: string } | { kind: 'ready' } | { kind: 'failed'; detail: string };

interface Slot {
  chat: LlamaChat;
}

/**
 * An in-process GGUF model through node-llama-cpp (the prebuilt CPU binary, never a source
 * build). Lazy: `warmUp()` (or the first generation) pulls the model when needed and loads
 * it; until then `status()` says `model_loading`, and `model_unavailable` with an
 * operator-readable reason when it cannot (no file, no internet, not a GGUF model).
 * Each of `parallel` context sequences serves one reply at a time; further requests queue.
 */
export class LocalLlmProvider implements LlmProvider {
  private state: State = { kind: 'idle' };
  private loading?: Promise<void>;
  private llama?: Llama;
  private model?: LlamaModel;
  private contextSize: number;
  private readonly free: Slot[] = [];
  private readonly waiting: { resolve: (slot: Slot) => void; reject: (error: unknown) => void; signal: AbortSignal }[] =
    [];
  private readonly closing = new AbortController();
  /** Generations under way, awaited by close() before the engine is disposed. */
  private readonly running = new Set<Promise<void>>();
  private readonly id: string;
  private readonly label: string;

  constructor(private readonly options: LocalLlmOptions) {
    this.contextSize = options.contextSize;
    this.id = options.modelId ?? 'local';
    this.label = options.modelId ?? modelName(options.modelPath ?? options.modelUri);
  }

  models(): ModelEntry[] {
    return [{ id: this.id, label: this.label, provider: 'local', contextSize: this.contextSize, premium: false }];
  }

  status(): ProviderStatus {
    switch (this.state.kind) {
      case 'ready':
        return { ready: true };
      case 'idle':
        return { ready: false, code: 'model_loading', detail: 'The local language model loads on first use' };
      case 'loading':
        return { ready: false, code: 'model_loading', detail: this.state.detail };
      case 'failed':
        return { ready: false, code: 'model_unavailable', detail: this.state.detail };
    }
  }

  countTokens(_model: string, text: string): number {
    if (this.model && this.state.kind === 'ready') return this.model.tokenize(text).length;
    return estimateTokens(text);
  }

  warmUp(): Promise<void> {
    if (this.closing.signal.aborted) return Promise.resolve();
    this.loading ??= this.load().catch((error: unknown) => {
      // load() reports its own failures; this only guards against the unexpected.
      const detail = `The local language model could not be loaded: ${message(error)}`;
      if (this.state.kind !== 'failed') {
        this.state = { kind: 'failed', detail };
        this.options.log.error(detail);
      }
    });
    return this.loading;
  }

  /** A JSON-schema grammar for structured output (kept per schema: building one parses it). */
  private readonly grammars = new Map<string, Promise<LlamaGrammar>>();
  private grammarFor(schema: Record<string, unknown>): Promise<LlamaGrammar> {
    const key = JSON.stringify(schema);
    let grammar = this.grammars.get(key);
    if (!grammar) {
      const llama = this.llama;
      if (!llama) throw new LlmError('model_unavailable', 'The local language model is not loaded');
      grammar = llama.createGrammarForJsonSchema(schema as Parameters<Llama['createGrammarForJsonSchema']>[0]);
      grammar.catch(() => this.grammars.delete(key));
      this.grammars.set(key, grammar);
    }
    return grammar;
  }

  async *generate(request: GenerateRequest): AsyncIterable<string> {
    request.signal.throwIfAborted();
    if (this.state.kind !== 'ready') {
      if (this.state.kind === 'idle') void this.warmUp();
      const status = this.status();
      if (!status.ready) throw new LlmError(status.code, status.detail);
    }
    if (request.model !== this.id)
      throw new LlmError('model_unavailable', `The model "${request.model}" is not in the catalogue`);

    const grammar = request.jsonSchema ? await this.grammarFor(request.jsonSchema.schema) : undefined;
    const slot = await this.acquire(request.signal);
    // Ends the generation on the caller's abort, or when the caller stops reading.
    const stop = new AbortController();
    const signal = AbortSignal.any([request.signal, stop.signal, this.closing.signal]);
    const pieces: string[] = [];
    let wake: (() => void) | undefined;
    let finished = false;
    let failure: unknown;
    const notify = () => {
      wake?.();
      wake = undefined;
    };
    let timedOut = false;
    let timer: NodeJS.Timeout | undefined;
    const arm = () => {
      if (!this.options.idleTimeoutMs) return;
      clearTimeout(timer);
      timer = setTimeout(() => {
        timedOut = true;
        stop.abort();
      }, this.options.idleTimeoutMs);
    };
    arm();
    const run = slot.chat
      .generateResponse(toHistory(request.messages), {
        maxTokens: request.maxTokens,
        temperature: request.temperature ?? this.options.temperature,
        grammar,
        signal,
        stopOnAbortSignal: true,
        onTextChunk: (text) => {
          if (!text) return;
          arm();
          pieces.push(text);
          notify();
        },
      })
      .then(
        () => {
          finished = true;
          notify();
        },
        (error: unknown) => {
          failure = error;
          finished = true;
          notify();
        },
      );
    this.running.add(run);
    try {
      for (;;) {
        if (request.signal.aborted) throw request.signal.reason;
        if (timedOut)
          throw new LlmError(
            'timeout',
            `The local language model produced nothing for ${Math.round((this.options.idleTimeoutMs ?? 0) / 1000)} s`,
          );
        if (pieces.length) {
          yield pieces.shift() as string;
          continue;
        }
        if (finished) break;
        await new Promise<void>((resolve) => (wake = resolve));
      }
      if (failure !== undefined) {
        if (this.closing.signal.aborted) throw new LlmError('model_unavailable', 'The server is shutting down');
        throw new LlmError('provider_error', `The local language model failed: ${message(failure)}`);
      }
      if (this.closing.signal.aborted) throw new LlmError('model_unavailable', 'The server is shutting down');
    } finally {
      clearTimeout(timer);
      stop.abort();
      await run;
      this.running.delete(run);
      this.release(slot);
    }
  }

  async close(): Promise<void> {
    this.closing.abort();
    for (const waiter of this.waiting.splice(0))
      waiter.reject(new LlmError('model_unavailable', 'The server is shutting down'));
    await this.loading;
    await Promise.all(this.running);
    this.state = { kind: 'failed', detail: 'The local language model was shut down' };
    const llama = this.llama;
    this.llama = undefined;
    this.model = undefined;
    this.free.length = 0;
    await llama?.dispose();
  }

  private acquire(signal: AbortSignal): Promise<Slot> {
    const slot = this.free.pop();
    if (slot) return Promise.resolve(slot);
    return new Promise<Slot>((resolve, reject) => {
      const waiter = {
        signal,
        resolve: (next: Slot) => {
          signal.removeEventListener('abort', onAbort);
          resolve(next);
        },
        reject,
      };
      const onAbort = () => {
        const index = this.waiting.indexOf(waiter);
        if (index >= 0) this.waiting.splice(index, 1);
        reject(signal.reason);
      };
      signal.addEventListener('abort', onAbort, { once: true });
      this.waiting.push(waiter);
    });
  }

  private release(slot: Slot): void {
    if (this.closing.signal.aborted) return;
    const next = this.waiting.shift();
    if (next) next.resolve(slot);
    else this.free.push(slot);
  }

  private async load(): Promise<void> {
    const { log } = this.options;
    const failed = (detail: string) => {
      this.state = { kind: 'failed', detail };
      log.error(detail);
    };
    this.state = { kind: 'loading', detail: 'The local language model is starting' };
    const started = performance.now();

    let lib: NodeLlamaCpp;
    try {
      lib = await import('node-llama-cpp');
      this.llama = await lib.getLlama({
        gpu: false,
        build: 'never',
        maxThreads: this.options.threads ?? os.availableParallelism(),
        logLevel: lib.LlamaLogLevel.warn,
        logger: (level, text) => {
          const line = text.trim();
          if (!line) return;
          if (level === lib.LlamaLogLevel.error || level === lib.LlamaLogLevel.fatal) log.error(`llama.cpp: ${line}`);
          else if (level === lib.LlamaLogLevel.warn) log.warn(`llama.cpp: ${line}`);
        },
      });
    } catch (error) {
      return failed(
        `The local language engine (node-llama-cpp) cannot start on ${process.platform}-${process.arch}: ${message(error)}. ` +
          'Use LLM_PROVIDER=openai with an OpenAI-compatible endpoint instead (docs/llm.md).',
      );
    }
    if (this.closing.signal.aborted) return;

    let file: string;
    if (this.options.modelPath) {
      file = path.resolve(this.options.modelPath);
      if (!fs.existsSync(file))
        return failed(`LLM_MODEL_PATH points at ${file}, which does not exist: set it to a GGUF model file`);
      if (!fs.statSync(file).isFile()) return failed(`LLM_MODEL_PATH points at ${file}, which is not a file`);
    } else {
      try {
        file = await this.pull(lib);
      } catch (error) {
        if (this.closing.signal.aborted) return;
        return failed(
          `Cannot download the language model ${this.options.modelUri} into ${this.options.modelsDir}: ${message(error)}. ` +
            'Check that the server can reach the internet, or set LLM_MODEL_PATH to a GGUF file (docs/llm.md).',
        );
      }
    }
    if (this.closing.signal.aborted) return;

    this.state = { kind: 'loading', detail: `The local language model is loading (${path.basename(file)})` };
    log.info(`loading the language model ${file}`);
    try {
      const model = await this.llama.loadModel({ modelPath: file });
      this.model = model;
      this.contextSize = Math.min(this.options.contextSize, model.trainContextSize || this.options.contextSize);
      const context = await model.createContext({
        contextSize: this.contextSize,
        sequences: this.options.parallel,
      });
      const chatWrapper = lib.resolveChatWrapper(model);
      for (let i = 0; i < this.options.parallel; i++)
        this.free.push({ chat: new lib.LlamaChat({ contextSequence: context.getSequence(), chatWrapper }) });
      if (this.closing.signal.aborted) return;
      this.state = { kind: 'ready' };
      log.info(
        `language model ready: ${path.basename(file)} (${chatWrapper.wrapperName} chat format, context ${this.contextSize} tokens, ` +
          `${this.options.parallel} at once, ${this.llama.maxThreads} threads) in ${Math.round(performance.now() - started)} ms`,
      );
    } catch (error) {
      return failed(`Cannot load ${file} as a GGUF language model: ${message(error)}`);
    }
  }

  /**
   * A plain https URL of a .gguf file goes through the shared downloader (providers/models):
   * a temporary file renamed when whole, resumed when the transfer breaks off. Saved under the
   * URL's file name, as node-llama-cpp's downloader did.
   */
  private async pullUrl(url: string): Promise<string> {
    const { log, modelsDir } = this.options;
    const name = decodeURIComponent(path.basename(new URL(url).pathname)) || 'model.gguf';
    const logProgress = progressLogger(log, 'the language model');
    const [file] = await pullFiles(modelsDir, [{ url, name }], {
      signal: this.closing.signal,
      log,
      label: `the language model ${url}`,
      onProgress: (fraction, detail) => {
        if (fraction === null) return;
        this.state = {
          kind: 'loading',
          detail: `Downloading the language model ${url}: ${Math.floor(fraction * 100)}%`,
        };
        logProgress(fraction, detail);
      },
    });
    return file!;
  }

  /** Pulls LLM_MODEL_URI into the models folder (once), logging a progress bar; `hf:` URIs through node-llama-cpp's resolver. */
  private async pull(lib: NodeLlamaCpp): Promise<string> {
    const { log, modelUri, modelsDir } = this.options;
    fs.mkdirSync(modelsDir, { recursive: true });
    if (/^https?:\/\//i.test(modelUri)) return this.pullUrl(modelUri);
    // Already pulled: no network needed.
    const present = await lib
      .resolveModelFile(modelUri, { directory: modelsDir, download: false, cli: false })
      .catch(() => null);
    if (present) return present;

    // The downloader retries a refused connection for minutes: find out at once whether the
    // host answers at all, so that an offline server says so instead of "loading" for long.
    await probe(modelUri, this.closing.signal);

    // A download that makes no progress for a while is given up (the downloader would retry).
    const stalled = new AbortController();
    let watchdog = setTimeout(() => stalled.abort(), PULL_STALL_MS);
    let announced = false;
    const logProgress = progressLogger(log, 'the language model');
    try {
      const file = await lib.resolveModelFile(modelUri, {
        directory: modelsDir,
        cli: false,
        signal: AbortSignal.any([this.closing.signal, stalled.signal]),
        onProgress: ({ totalSize, downloadedSize }) => {
          clearTimeout(watchdog);
          watchdog = setTimeout(() => stalled.abort(), PULL_STALL_MS);
          const fraction = totalSize > 0 ? downloadedSize / totalSize : 0;
          this.state = {
            kind: 'loading',
            detail: `Downloading the language model ${modelUri}: ${Math.floor(fraction * 100)}%`,
          };
          if (!announced) {
            announced = true;
            log.info(`downloading the language model ${modelUri} into ${modelsDir} (${megabytes(totalSize)} MB)`);
          }
          logProgress(fraction, { downloaded: downloadedSize, total: totalSize });
        },
      });
      log.info(`downloaded the language model to ${file}`);
      return file;
    } catch (error) {
      if (stalled.signal.aborted) throw new Error(`the download made no progress for ${PULL_STALL_MS / 1000} s`);
      throw error;
    } finally {
      clearTimeout(watchdog);
    }
  }
}

/** Seconds without download progress before a pull is given up. */
const PULL_STALL_MS = 60_000;

/** Fails fast (10 s at most) when the host a model URI downloads from cannot be reached. */
async function probe(uri: string, closing: AbortSignal): Promise<void> {
  if (/^(hf|huggingface):/i.test(uri)) return probeHost('https://huggingface.co/', closing);
}

function toHistory(messages: GenerateRequest['messages']): ChatHistoryItem[] {
  const history: ChatHistoryItem[] = messages.map((turn) =>
    turn.role === 'assistant'
      ? { type: 'model', response: [turn.content] }
      : turn.role === 'system'
        ? { type: 'system', text: turn.content }
        : { type: 'user', text: turn.content },
  );
  history.push({ type: 'model', response: [] });
  return history;
}

/** A readable name from a file path or a model URI: `hf:o/Llama-3.2-1B-Instruct-GGUF:Q4_K_M` → `Llama-3.2-1B-Instruct Q4_K_M`. */
export function modelName(source: string): string {
  const withoutScheme = source.replace(/^[a-z]+:(?!\/\/)/i, '');
  const [location = '', tag] = withoutScheme.split(/:(?!\/\/)/);
  const base = path
    .basename(location.replace(/\/+$/, ''))
    .replace(/\.gguf$/i, '')
    .replace(/[-_]GGUF$/i, '');
  return tag ? `${base} ${tag}` : base || 'local model';
}

function message(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
