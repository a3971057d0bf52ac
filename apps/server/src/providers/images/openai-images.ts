import { buildImagePrompt, type CharacterLook, type GeneratedImage, type ImageProvider } from './image-provider.js';

/**
 * An OpenAI-compatible images endpoint (`POST {base}/images/generations`): OpenAI, LocalAI,
 * a Stable Diffusion server with an OpenAI facade… Asks for `b64_json`; a `url` answer is
 * downloaded instead.
 */
export class OpenAiImageProvider implements ImageProvider {
  readonly name = 'openai';
  private readonly base: string;

  constructor(private readonly options: { baseUrl: string; apiKey?: string; model: string; size?: string }) {
    this.base = options.baseUrl.replace(/\/+$/, '');
  }

  async generate(look: CharacterLook, { signal }: { signal?: AbortSignal } = {}): Promise<GeneratedImage> {
    const body: Record<string, unknown> = {
      model: this.options.model,
      prompt: buildImagePrompt(look),
      n: 1,
      size: this.options.size ?? '1024x1024',
    };
    // gpt-image models always answer base64 and refuse the parameter; the others need it.
    if (!this.options.model.startsWith('gpt-image')) body.response_format = 'b64_json';
    const response = await fetch(`${this.base}/images/generations`, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        ...(this.options.apiKey ? { authorization: `Bearer ${this.options.apiKey}` } : {}),
      },
      body: JSON.stringify(body),
      signal,
    });
    if (!response.ok) throw new Error(`images/generations answered ${response.status}`);
    const result = (await response.json()) as { data?: { b64_json?: string; url?: string }[] };
    const first = result.data?.[0];
    if (first?.b64_json) return { data: Buffer.from(first.b64_json, 'base64'), contentType: 'image/png' };
    if (first?.url) {
      const file = await fetch(first.url, { signal });
      if (!file.ok) throw new Error(`the generated picture's URL answered ${file.status}`);
      return {
        data: Buffer.from(await file.arrayBuffer()),
        contentType: file.headers.get('content-type') ?? 'image/png',
      };
    }
    throw new Error('images/generations answered without a picture');
  }
}
