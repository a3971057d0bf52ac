import { randomInt, randomUUID } from 'node:crypto';
import fs from 'node:fs';
import {
  buildImagePrompt,
  NEGATIVE_PROMPT,
  type CharacterLook,
  type GeneratedImage,
  type ImageProvider,
} from './image-provider.js';
import { sleep } from '@reverie/shared';

/** The Stable Diffusion 1.5 checkpoint the built-in workflows load. */
export const SD15_CHECKPOINT = {
  class_type: 'CheckpointLoaderSimple',
  inputs: { ckpt_name: 'v1-5-pruned-emaonly.safetensors' },
};

/** A link to another node's output in a workflow: `[node id, output index]`. */
type NodeLink = [string, number];

/**
 * The sampler of the built-in workflows (24 steps, `{{seed}}`): `denoise` 1 draws from noise,
 * less keeps that much of the input picture (img2img).
 */
export function sd15Sampler(
  denoise: number,
  links: { model: NodeLink; positive: NodeLink; negative: NodeLink; latent_image: NodeLink },
) {
  return {
    class_type: 'KSampler',
    inputs: {
      seed: '{{seed}}',
      steps: 24,
      cfg: 7,
      sampler_name: 'euler_ancestral',
      scheduler: 'normal',
      denoise,
      ...links,
    },
  };
}

/** The request headers of a ComfyUI server: the API key when there is one, the JSON type when asked. */
export function comfyHeaders(apiKey: string | undefined): (json?: boolean) => Record<string, string> {
  return (json = false) => ({
    ...(json ? { 'content-type': 'application/json' } : {}),
    ...(apiKey ? { authorization: `Bearer ${apiKey}` } : {}),
  });
}

/**
 * A text-to-image workflow in ComfyUI's API format for a Stable Diffusion 1.5 checkpoint;
 * `{{prompt}}`, `{{negative_prompt}}` and `{{seed}}` are filled per request. Replace it with
 * COMFYUI_WORKFLOW (export "Save (API format)" from ComfyUI and put `{{prompt}}` in the
 * positive text node).
 */
export const DEFAULT_COMFYUI_WORKFLOW = JSON.stringify({
  '3': sd15Sampler(1, { model: ['4', 0], positive: ['6', 0], negative: ['7', 0], latent_image: ['5', 0] }),
  '4': SD15_CHECKPOINT,
  '5': { class_type: 'EmptyLatentImage', inputs: { width: 512, height: 768, batch_size: 1 } },
  '6': { class_type: 'CLIPTextEncode', inputs: { text: '{{prompt}}', clip: ['4', 1] } },
  '7': { class_type: 'CLIPTextEncode', inputs: { text: '{{negative_prompt}}', clip: ['4', 1] } },
  '8': { class_type: 'VAEDecode', inputs: { samples: ['3', 0], vae: ['4', 2] } },
  '9': { class_type: 'SaveImage', inputs: { filename_prefix: 'reverie', images: ['8', 0] } },
});

/** JSON-escapes a text for use inside a JSON string. */
const inJsonString = (text: string) => JSON.stringify(text).slice(1, -1);

/** Fills the placeholders of a workflow's JSON text and parses it. */
export function fillWorkflow(template: string, values: { prompt: string; negative: string; seed: number }): unknown {
  if (!template.includes('{{prompt}}')) throw new Error('The ComfyUI workflow has no {{prompt}} placeholder');
  const text = template
    .replaceAll('"{{seed}}"', () => String(values.seed))
    .replaceAll('{{seed}}', () => String(values.seed))
    // Functions: the texts go in as they are (a string replacement would read `$&`, `$'`…).
    .replaceAll('{{prompt}}', () => inJsonString(values.prompt))
    .replaceAll('{{negative_prompt}}', () => inJsonString(values.negative));
  return JSON.parse(text);
}

interface HistoryEntry {
  status?: { status_str?: string; completed?: boolean; messages?: unknown[] };
  outputs?: Record<string, { images?: { filename: string; subfolder?: string; type?: string }[] }>;
}

/**
 * ComfyUI's HTTP API: `POST /prompt` queues the workflow, `GET /history/{id}` is polled until
 * the job has outputs (or failed), and `GET /view` downloads the first picture.
 */
export class ComfyUiImageProvider implements ImageProvider {
  readonly name = 'comfyui';
  private readonly base: string;
  private readonly template: string;
  private readonly headers: (json?: boolean) => Record<string, string>;

  constructor(
    private readonly options: {
      baseUrl: string;
      apiKey?: string;
      /** Path to a workflow JSON with `{{prompt}}`; the built-in one when unset. */
      workflowPath?: string;
      pollIntervalMs?: number;
    },
  ) {
    this.base = options.baseUrl.replace(/\/+$/, '');
    this.headers = comfyHeaders(options.apiKey);
    this.template = options.workflowPath ? fs.readFileSync(options.workflowPath, 'utf8') : DEFAULT_COMFYUI_WORKFLOW;
    // Fail at start, not at the first picture, when the workflow is unusable.
    fillWorkflow(this.template, { prompt: '', negative: '', seed: 1 });
  }

  async generate(look: CharacterLook, { signal }: { signal?: AbortSignal } = {}): Promise<GeneratedImage> {
    const workflow = fillWorkflow(this.template, {
      prompt: buildImagePrompt(look),
      negative: NEGATIVE_PROMPT,
      seed: randomInt(1, 2 ** 31),
    });
    return runComfyWorkflow(this.base, this.headers, workflow, {
      signal,
      pollIntervalMs: this.options.pollIntervalMs,
    });
  }
}

/**
 * Uploads a picture to ComfyUI's input folder (`POST /upload/image`); answers the name a
 * `LoadImage` node reads it by (the style transform's img2img, modules/transforms).
 */
export async function uploadComfyImage(
  base: string,
  headers: () => Record<string, string>,
  image: { data: Buffer; contentType: string; filename: string },
  signal?: AbortSignal,
): Promise<string> {
  const form = new FormData();
  form.append('image', new Blob([new Uint8Array(image.data)], { type: image.contentType }), image.filename);
  form.append('overwrite', 'true');
  const response = await fetch(`${base}/upload/image`, { method: 'POST', headers: headers(), body: form, signal });
  if (!response.ok) throw new Error(`ComfyUI /upload/image answered ${response.status}`);
  const { name, subfolder } = (await response.json()) as { name?: string; subfolder?: string };
  if (!name) throw new Error('ComfyUI /upload/image answered without a name');
  return subfolder ? `${subfolder}/${name}` : name;
}

/**
 * Queues a workflow (`POST /prompt`), polls `GET /history/{id}` until it has a picture (or
 * failed) and downloads the first picture (`GET /view`).
 */
export async function runComfyWorkflow(
  base: string,
  headers: (json?: boolean) => Record<string, string>,
  workflow: unknown,
  { signal, pollIntervalMs }: { signal?: AbortSignal; pollIntervalMs?: number } = {},
): Promise<GeneratedImage> {
  const queued = await fetch(`${base}/prompt`, {
    method: 'POST',
    headers: headers(true),
    body: JSON.stringify({ prompt: workflow, client_id: randomUUID() }),
    signal,
  });
  if (!queued.ok) throw new Error(`ComfyUI /prompt answered ${queued.status}`);
  const { prompt_id: promptId } = (await queued.json()) as { prompt_id?: string };
  if (!promptId) throw new Error('ComfyUI /prompt answered without prompt_id');

  const interval = pollIntervalMs ?? 500;
  for (;;) {
    const response = await fetch(`${base}/history/${encodeURIComponent(promptId)}`, {
      headers: headers(),
      signal,
    });
    if (!response.ok) throw new Error(`ComfyUI /history answered ${response.status}`);
    const entry = ((await response.json()) as Record<string, HistoryEntry>)[promptId];
    if (entry?.status?.status_str === 'error') throw new Error('ComfyUI reported an error for the job');
    const image = Object.values(entry?.outputs ?? {}).flatMap((output) => output.images ?? [])[0];
    if (image) {
      const query = new URLSearchParams({
        filename: image.filename,
        subfolder: image.subfolder ?? '',
        type: image.type ?? 'output',
      });
      const view = await fetch(`${base}/view?${query}`, { headers: headers(), signal });
      if (!view.ok) throw new Error(`ComfyUI /view answered ${view.status}`);
      return {
        data: Buffer.from(await view.arrayBuffer()),
        contentType: view.headers.get('content-type') ?? 'image/png',
      };
    }
    if (entry?.status?.completed) throw new Error('ComfyUI finished the job without a picture');
    // A reason that is no Error (an abort with a string) is thrown as one.
    await sleep(interval, signal).catch((reason: unknown) => {
      throw reason instanceof Error ? reason : new Error('aborted');
    });
  }
}
