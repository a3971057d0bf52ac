/**
 * The language-model engine behind one interface (PRODUCT.md §4): an OpenAI-compatible HTTP
 * endpoint or an in-process GGUF model through node-llama-cpp, chosen by configuration.
 * The chats module only ever sees `LlmProvider`; tests pass scripted fakes.
 */

export interface ChatTurn {
  role: 'system' | 'user' | 'assistant';
  content: string;
}

export interface GenerateRequest {
  /** A model id of the catalogue. */
  model: string;
  messages: ChatTurn[];
  /** The most tokens the reply may have. */
  maxTokens: number;
  temperature?: number;
  /**
   * Aborted when the user stops, the generation times out, or the server shuts down; the
   * iteration then ends promptly by throwing the signal's reason (as `fetch` does).
   */
  signal: AbortSignal;
  /**
   * Structured output: the reply is one JSON value of this schema (an OpenAI-compatible
   * `response_format: {type: 'json_schema'}`, a JSON-schema grammar on the local engine).
   * Keep to the subset both accept: object, array, string, integer, number, boolean, enum,
   * `required`, `additionalProperties: false`, nullable as a `type` list.
   */
  jsonSchema?: { name: string; schema: Record<string, unknown> };
}

/** One model of the catalogue. */
export interface ModelEntry {
  id: string;
  label: string;
  provider: 'openai' | 'local';
  /** The model's context window in tokens. */
  contextSize: number;
  premium: boolean;
}

/** Why a provider cannot answer now; `detail` is shown to operators (log) and users (chat). */
export type ProviderStatus =
  { ready: true } | { ready: false; code: 'model_loading' | 'model_unavailable'; detail: string };

export class LlmError extends Error {
  constructor(
    /** `provider_error`, `timeout`, `model_unavailable`, `model_loading`, `rate_limited`. */
    readonly code: string,
    message: string,
  ) {
    super(message);
  }
}

export interface LlmProvider {
  /** The catalogue this provider serves; the first entry is the default model. */
  models(): ModelEntry[];
  status(): ProviderStatus;
  /** Streams the reply as text pieces; throws LlmError (or aborts) on failure. */
  generate(request: GenerateRequest): AsyncIterable<string>;
  /** Counts tokens with the model's own tokenizer when it has one; else an estimate. */
  countTokens(model: string, text: string): number | Promise<number>;
  /**
   * True when `countTokens` is `estimateTokens` itself: the counts stored with each message are
   * then as good as counting again, and the prompt builder uses them.
   */
  readonly estimatesTokens?: boolean;
  /**
   * Embeddings of `texts` (one vector each) when the endpoint offers `/v1/embeddings`
   * (LLM_EMBEDDINGS_MODEL set); absent otherwise. Throws LlmError on failure.
   */
  embed?(texts: string[], signal?: AbortSignal): Promise<number[][]>;
  /** Starts loading or downloading (local models); resolves when ready or failed. */
  warmUp?(): Promise<void>;
  close?(): Promise<void>;
}

/** A cheap token estimate (about 4 characters of Latin text, 1.5 of CJK, per token). */
export function estimateTokens(text: string): number {
  if (!text) return 0;
  const cjk = CJK.test(text) ? (text.match(CJK_ALL)?.length ?? 0) : 0;
  return Math.ceil((text.length - cjk) / 4 + cjk / 1.5);
}
const CJK = /[\u3000-\u9fff\uac00-\ud7af]/;
const CJK_ALL = /[\u3000-\u9fff\uac00-\ud7af]/g;
