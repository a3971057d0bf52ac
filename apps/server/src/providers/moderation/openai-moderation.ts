import { detectMinor } from './rules-moderation.js';
import type { ModerationProvider, ModerationVerdict } from './moderation.js';

interface ModerationResponse {
  results?: { flagged?: boolean; categories?: Record<string, boolean> }[];
}

/**
 * An OpenAI-compatible `/v1/moderations` endpoint (OpenAI omni-moderation or a compatible
 * server). The rule-based minors detector still runs first, so a known term is refused
 * without a network call.
 */
export class OpenAiModerationProvider implements ModerationProvider {
  readonly name = 'openai';
  readonly canAutoApprove = true;

  constructor(private readonly options: { baseUrl: string; apiKey?: string; model: string; fetch?: typeof fetch }) {}

  private async call(input: unknown): Promise<ModerationVerdict> {
    const doFetch = this.options.fetch ?? fetch;
    const response = await doFetch(`${this.options.baseUrl.replace(/\/+$/, '')}/moderations`, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        ...(this.options.apiKey ? { authorization: `Bearer ${this.options.apiKey}` } : {}),
      },
      body: JSON.stringify({ model: this.options.model, input }),
      signal: AbortSignal.timeout(15_000),
    });
    if (!response.ok) throw new Error(`moderation endpoint answered ${response.status}`);
    const body = (await response.json()) as ModerationResponse;
    const result = body.results?.[0];
    const categories = result?.categories ?? {};
    const flaggedCategories = Object.keys(categories).filter((k) => categories[k]);
    if (categories['sexual/minors']) return { flagged: true, reason: 'sexual/minors', categories: flaggedCategories };
    if (result?.flagged) return { flagged: true, reason: flaggedCategories.join(','), categories: flaggedCategories };
    return { flagged: false };
  }

  async checkText(text: string): Promise<ModerationVerdict> {
    const reason = detectMinor(text);
    if (reason) return { flagged: true, reason };
    return this.call(text);
  }

  async checkImage(image: Buffer, contentType: string): Promise<ModerationVerdict> {
    return this.call([
      { type: 'image_url', image_url: { url: `data:${contentType};base64,${image.toString('base64')}` } },
    ]);
  }
}
