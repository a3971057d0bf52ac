import { randomInt, randomUUID } from 'node:crypto';
import fs from 'node:fs';
import sharp from 'sharp';
import { TRANSFORM_MAX_SIDE, type TransformStyle } from '@reverie/shared';
import { MAX_INPUT_PIXELS } from '../../lib/images.js';
import {
  comfyHeaders,
  fillWorkflow,
  runComfyWorkflow,
  SD15_CHECKPOINT,
  sd15Sampler,
  uploadComfyImage,
} from '../../providers/images/comfyui.js';
import { renderStyle, type StyledImage } from './styles/index.js';

/**
 * Makes a transform's result from the (sanitised) original: the embedded sharp engine
 * (`local`, the default) or an img2img workflow on ComfyUI (`comfyui`). Chosen by
 * TRANSFORM_PROVIDER (docs/transform.md "Providers").
 */
export interface TransformProvider {
  readonly name: 'local' | 'comfyui';
  transform(input: Buffer, style: TransformStyle, options?: { signal?: AbortSignal }): Promise<StyledImage>;
}

export class LocalTransformProvider implements TransformProvider {
  readonly name = 'local' as const;
  transform(input: Buffer, style: TransformStyle): Promise<StyledImage> {
    return renderStyle(input, style);
  }
}

/** The fixed prompt of each style for the img2img provider (never the user's words). */
export const STYLE_PROMPTS: Record<TransformStyle, string> = {
  anime: 'anime illustration, cel shading, clean line art, vibrant colours, studio anime key visual',
  comic: 'comic book art, bold ink outlines, flat colours, halftone dots, graphic novel panel',
  watercolour: 'watercolour painting, soft washes, pigment bleeding, visible paper texture, loose brushwork',
  pencil: 'graphite pencil sketch, cross hatching, shading on textured paper, hand drawn',
  oil: 'oil painting on canvas, thick impasto brush strokes, rich colours, classical painting',
  pop_art: 'pop art poster, bold flat colours, Ben-Day dots, screen print, 1960s pop art',
  cyberpunk: 'cyberpunk neon portrait, magenta and cyan neon lights, night city glow, synthwave',
  vintage: 'vintage film photograph, faded colours, film grain, warm sepia tones, 1970s analog photo',
};

/**
 * What a transform must never produce (docs/transform.md "What it may never do"): no nudity,
 * no sexual content, no change of the person's body or age.
 */
export const TRANSFORM_NEGATIVE_PROMPT =
  'nude, naked, nudity, nsfw, sexual, lingerie, underwear, cleavage, undressed, topless, child, minor, underage, ' +
  'younger, body change, deformed, watermark, text, low quality';

/**
 * An img2img workflow in ComfyUI's API format for a Stable Diffusion 1.5 checkpoint: the
 * uploaded photo (`{{image}}`) encoded, denoised at 0.55 with the style's prompt, decoded.
 * Replace it with TRANSFORM_COMFYUI_WORKFLOW (placeholders `{{image}}`, `{{prompt}}`,
 * `{{negative_prompt}}`, `{{seed}}`).
 */
export const DEFAULT_TRANSFORM_WORKFLOW = JSON.stringify({
  '1': { class_type: 'LoadImage', inputs: { image: '{{image}}' } },
  '2': SD15_CHECKPOINT,
  '3': { class_type: 'VAEEncode', inputs: { pixels: ['1', 0], vae: ['2', 2] } },
  '4': { class_type: 'CLIPTextEncode', inputs: { text: '{{prompt}}', clip: ['2', 1] } },
  '5': { class_type: 'CLIPTextEncode', inputs: { text: '{{negative_prompt}}', clip: ['2', 1] } },
  '6': sd15Sampler(0.55, { model: ['2', 0], positive: ['4', 0], negative: ['5', 0], latent_image: ['3', 0] }),
  '7': { class_type: 'VAEDecode', inputs: { samples: ['6', 0], vae: ['2', 2] } },
  '8': { class_type: 'SaveImage', inputs: { filename_prefix: 'reverie-transform', images: ['7', 0] } },
});

export class ComfyUiTransformProvider implements TransformProvider {
  readonly name = 'comfyui' as const;
  private readonly base: string;
  private readonly template: string;
  private readonly headers: (json?: boolean) => Record<string, string>;

  constructor(
    private readonly options: { baseUrl: string; apiKey?: string; workflowPath?: string; pollIntervalMs?: number },
  ) {
    this.base = options.baseUrl.replace(/\/+$/, '');
    this.headers = comfyHeaders(options.apiKey);
    this.template = options.workflowPath ? fs.readFileSync(options.workflowPath, 'utf8') : DEFAULT_TRANSFORM_WORKFLOW;
    if (!this.template.includes('{{image}}')) throw new Error('The transform workflow has no {{image}} placeholder');
    fillWorkflow(this.template.replaceAll('{{image}}', 'x'), { prompt: '', negative: '', seed: 1 });
  }

  async transform(
    input: Buffer,
    style: TransformStyle,
    { signal }: { signal?: AbortSignal } = {},
  ): Promise<StyledImage> {
    // SD 1.5 works best near 512 px: the photo goes up at most 768 px on its longer side.
    const png = await sharp(input, { limitInputPixels: MAX_INPUT_PIXELS })
      .rotate()
      .resize({ width: 768, height: 768, fit: 'inside', withoutEnlargement: true })
      .png()
      .toBuffer();
    const name = await uploadComfyImage(
      this.base,
      this.headers,
      { data: png, contentType: 'image/png', filename: `reverie-${randomUUID()}.png` },
      signal,
    );
    const workflow = fillWorkflow(
      this.template.replaceAll('{{image}}', () => JSON.stringify(name).slice(1, -1)),
      {
        prompt: STYLE_PROMPTS[style],
        negative: TRANSFORM_NEGATIVE_PROMPT,
        seed: randomInt(1, 2 ** 31),
      },
    );
    const image = await runComfyWorkflow(this.base, this.headers, workflow, {
      signal,
      pollIntervalMs: this.options.pollIntervalMs,
    });
    // Whatever the server answered: checked by decoding, at most TRANSFORM_MAX_SIDE, WebP.
    const { data, info } = await sharp(image.data, { limitInputPixels: MAX_INPUT_PIXELS })
      .resize({ width: TRANSFORM_MAX_SIDE, height: TRANSFORM_MAX_SIDE, fit: 'inside', withoutEnlargement: true })
      .webp({ quality: 86 })
      .toBuffer({ resolveWithObject: true });
    return { data, contentType: 'image/webp', width: info.width, height: info.height };
  }
}

export function createTransformProvider(settings: {
  TRANSFORM_PROVIDER: 'local' | 'comfyui';
  COMFYUI_URL?: string;
  IMAGE_API_KEY?: string;
  TRANSFORM_COMFYUI_WORKFLOW?: string;
}): TransformProvider {
  if (settings.TRANSFORM_PROVIDER === 'comfyui') {
    return new ComfyUiTransformProvider({
      baseUrl: settings.COMFYUI_URL ?? 'http://127.0.0.1:8188',
      apiKey: settings.IMAGE_API_KEY,
      workflowPath: settings.TRANSFORM_COMFYUI_WORKFLOW,
    });
  }
  return new LocalTransformProvider();
}
