import type { ModelEntry } from './llm.js';

/**
 * `LLM_MODELS`: the models an OpenAI-compatible endpoint offers, comma-separated, each
 * `id|label|context|premium` where only the id is required:
 *
 *   LLM_MODELS=gpt-4o-mini|GPT-4o mini|128000,gpt-4o|GPT-4o|128000|premium
 *
 * - `id` is what is sent to the endpoint as `model`;
 * - `label` is what users see (the id when empty);
 * - `context` is the context window in tokens (LLM_CONTEXT_SIZE when empty);
 * - `premium` (or `true`, `yes`, `1`) marks a model only premium users may choose.
 *
 * A JSON array (`[{"id","label","context_size","premium"}]`) is accepted too.
 */
export function parseModelCatalogue(text: string, defaults: { contextSize: number }): Omit<ModelEntry, 'provider'>[] {
  const trimmed = text.trim();
  if (!trimmed) return [];
  const entries = trimmed.startsWith('[') ? fromJson(trimmed, defaults) : fromList(trimmed, defaults);
  const seen = new Set<string>();
  for (const entry of entries) {
    if (seen.has(entry.id)) throw new Error(`the model "${entry.id}" is listed twice`);
    seen.add(entry.id);
  }
  return entries;
}

function fromList(text: string, defaults: { contextSize: number }): Omit<ModelEntry, 'provider'>[] {
  return text
    .split(',')
    .map((item) => item.trim())
    .filter(Boolean)
    .map((item) => {
      const [id = '', label = '', context = '', premium = '', ...rest] = item.split('|').map((part) => part.trim());
      if (rest.length) throw new Error(`"${item}" has more than 4 parts (id|label|context|premium)`);
      if (!id) throw new Error(`"${item}" has no model id`);
      return {
        id,
        label: label || id,
        contextSize: contextSize(context, item, defaults),
        premium: flag(premium, item),
      };
    });
}

function fromJson(text: string, defaults: { contextSize: number }): Omit<ModelEntry, 'provider'>[] {
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    throw new Error('not valid JSON (or use the id|label|context|premium list format)');
  }
  if (!Array.isArray(parsed)) throw new Error('the JSON form must be an array of models');
  return parsed.map((raw: unknown, index) => {
    const item = (raw ?? {}) as Record<string, unknown>;
    const id = typeof item.id === 'string' ? item.id.trim() : '';
    if (!id) throw new Error(`model ${index + 1} has no "id"`);
    const label = typeof item.label === 'string' && item.label.trim() ? item.label.trim() : id;
    const size = item.context_size ?? item.contextSize;
    return {
      id,
      label,
      contextSize: contextSize(size === undefined ? '' : String(size), id, defaults),
      premium: item.premium === true,
    };
  });
}

function contextSize(value: string, item: string, defaults: { contextSize: number }): number {
  if (!value) return defaults.contextSize;
  const size = Number(value.replace(/_/g, ''));
  if (!Number.isInteger(size) || size < 256)
    throw new Error(`"${item}": the context size must be a whole number ≥ 256`);
  return size;
}

function flag(value: string, item: string): boolean {
  const word = value.toLowerCase();
  if (!word || word === 'false' || word === 'no' || word === '0') return false;
  if (word === 'premium' || word === 'true' || word === 'yes' || word === '1') return true;
  throw new Error(`"${item}": the 4th part must be "premium" or empty`);
}

/**
 * The OpenAI-compatible provider's catalogue: `LLM_MODELS` with `LLM_MODEL` first (added
 * when it is not listed). The first entry is the default model.
 */
export function openAiCatalogue(settings: { model?: string; models?: string; contextSize: number }): ModelEntry[] {
  const listed = parseModelCatalogue(settings.models ?? '', settings).map((entry) => ({
    ...entry,
    provider: 'openai' as const,
  }));
  if (!settings.model) return listed;
  const chosen = listed.find((entry) => entry.id === settings.model) ?? {
    id: settings.model,
    label: settings.model,
    provider: 'openai' as const,
    contextSize: settings.contextSize,
    premium: false,
  };
  return [chosen, ...listed.filter((entry) => entry !== chosen)];
}
