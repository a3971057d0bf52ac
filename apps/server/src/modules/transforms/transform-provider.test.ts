import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startFakeComfyUi, type FakeComfyUi } from '../../../test/fake-comfyui.js';
import { makeTestPhoto } from '../../../test/fixtures/transform-photo.js';
import { testConfig } from '../../../test/helpers.js';
import { ComfyUiTransformProvider, createTransformProvider, STYLE_PROMPTS } from './transform-provider.js';

let comfy: FakeComfyUi;
beforeAll(async () => {
  comfy = await startFakeComfyUi();
});
afterAll(() => comfy.close());

describe('the ComfyUI img2img provider', () => {
  it('uploads the photo, runs the fixed style prompt with a negative prompt excluding nudity, and answers WebP', async () => {
    const provider = new ComfyUiTransformProvider({ baseUrl: comfy.url, pollIntervalMs: 10 });
    const result = await provider.transform(await makeTestPhoto(1200, 900), 'watercolour');
    expect(comfy.uploads).toHaveLength(1);
    const workflow = comfy.prompts.at(-1) as Record<string, { class_type: string; inputs: Record<string, unknown> }>;
    const nodes = Object.values(workflow);
    expect(nodes.find((n) => n.class_type === 'LoadImage')!.inputs.image).toBe(comfy.uploads[0]!.name);
    const texts = nodes.filter((n) => n.class_type === 'CLIPTextEncode').map((n) => n.inputs.text as string);
    expect(texts).toContain(STYLE_PROMPTS.watercolour);
    expect(texts.find((text) => text !== STYLE_PROMPTS.watercolour)).toMatch(/\bnude\b.*\bnsfw\b/);
    expect(typeof nodes.find((n) => n.class_type === 'KSampler')!.inputs.seed).toBe('number');
    const meta = await sharp(result.data).metadata();
    expect(meta.format).toBe('webp');
    // Sent at most 768 px on the longer side; the answer kept within 1024.
    expect(Math.max(meta.width!, meta.height!)).toBeLessThanOrEqual(1024);
  });

  it('fails when ComfyUI reports an error (the job is then retried, and refunded when it fails for good)', async () => {
    comfy.mode = 'error';
    const provider = new ComfyUiTransformProvider({ baseUrl: comfy.url, pollIntervalMs: 10 });
    await expect(provider.transform(await makeTestPhoto(200, 200), 'anime')).rejects.toThrow(/error/);
    comfy.mode = 'ok';
  });

  it('is chosen by TRANSFORM_PROVIDER=comfyui with COMFYUI_URL', () => {
    const config = testConfig({ TRANSFORM_PROVIDER: 'comfyui', COMFYUI_URL: comfy.url });
    expect(createTransformProvider(config).name).toBe('comfyui');
    expect(createTransformProvider(testConfig()).name).toBe('local');
  });
});
