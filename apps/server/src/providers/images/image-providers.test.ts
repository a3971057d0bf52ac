import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { FakeHttpServers, sendJson } from '../../../test/fake-http.js';
import { testConfig } from '../../../test/helpers.js';
import { ComfyUiImageProvider, fillWorkflow } from './comfyui.js';
import { buildImagePrompt } from './image-provider.js';
import { createImageProvider } from './index.js';
import { OpenAiImageProvider } from './openai-images.js';

const LOOK = { name: 'Mia', age: 24, description: 'Red hair, green eyes, freckles.', tags: ['anime', 'gamer'] };
const PNG = Buffer.from('89504e470d0a1a0a0000000d4948445200000001000000010802000000907753de', 'hex');

const fakes = new FakeHttpServers();
afterEach(() => fakes.closeAll());

describe('image prompt', () => {
  it("describes the character's appearance as an adult", () => {
    const prompt = buildImagePrompt({ ...LOOK, age: 16 });
    expect(prompt).toContain('Mia');
    expect(prompt).toContain('18-year-old adult');
    expect(prompt).toContain('Red hair, green eyes');
    expect(prompt).toContain('anime, gamer');
  });

  it('fills a workflow safely (quotes in the prompt stay inside the JSON string)', () => {
    const filled = fillWorkflow('{"a":{"inputs":{"text":"{{prompt}}","seed":"{{seed}}"}}}', {
      prompt: 'say "hi"\nnow',
      negative: '',
      seed: 42,
    }) as { a: { inputs: { text: string; seed: number } } };
    expect(filled.a.inputs).toEqual({ text: 'say "hi"\nnow', seed: 42 });
    expect(() => fillWorkflow('{"a":1}', { prompt: 'x', negative: '', seed: 1 })).toThrow(/placeholder/);
  });

  it("fills a workflow literally: $&, $', $` and $1 in a prompt stay text (issue 27)", () => {
    const prompt = "a $ b $& c $` d $' e $1 f";
    const filled = fillWorkflow('{"a":{"inputs":{"text":"{{prompt}}","neg":"{{negative_prompt}}"}}}', {
      prompt,
      negative: `${prompt} no`,
      seed: 1,
    }) as { a: { inputs: { text: string; neg: string } } };
    expect(filled.a.inputs).toEqual({ text: prompt, neg: `${prompt} no` });
  });
});

describe('ComfyUI provider', () => {
  it('queues the workflow with the prompt, polls the history and downloads the picture', async () => {
    let polls = 0;
    const comfy = await fakes.start((req, res) => {
      if (req.method === 'POST' && req.url === '/prompt') return sendJson(res, { prompt_id: 'job-1', number: 1 });
      if (req.url === '/history/job-1') {
        polls += 1;
        if (polls < 3) return sendJson(res, {});
        return sendJson(res, {
          'job-1': {
            status: { status_str: 'success', completed: true },
            outputs: { '9': { images: [{ filename: 'reverie_0001.png', subfolder: '', type: 'output' }] } },
          },
        });
      }
      if (req.url.startsWith('/view?')) {
        res.writeHead(200, { 'content-type': 'image/png' });
        return res.end(PNG);
      }
      sendJson(res, { error: 'unknown' }, 404);
    });
    const provider = new ComfyUiImageProvider({ baseUrl: comfy.url, pollIntervalMs: 10 });
    const image = await provider.generate(LOOK);
    expect(image.data.equals(PNG)).toBe(true);
    expect(image.contentType).toBe('image/png');
    const queued = JSON.parse(comfy.seen[0]!.body) as { prompt: Record<string, { inputs: Record<string, unknown> }> };
    expect(queued.prompt['6']!.inputs.text).toContain('Mia');
    expect(queued.prompt['7']!.inputs.text).toContain('underage');
    expect(typeof queued.prompt['3']!.inputs.seed).toBe('number');
    expect(polls).toBe(3);
    const view = comfy.seen.find((s) => s.url.startsWith('/view'))!;
    expect(new URL(view.url, comfy.url).searchParams.get('filename')).toBe('reverie_0001.png');
  });

  it('reads a workflow file with the placeholder (COMFYUI_WORKFLOW)', async () => {
    const file = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'comfy-')), 'workflow.json');
    fs.writeFileSync(file, JSON.stringify({ '1': { class_type: 'Custom', inputs: { text: 'portrait, {{prompt}}' } } }));
    const comfy = await fakes.start((req, res) => {
      if (req.url === '/prompt') return sendJson(res, { prompt_id: 'p2' });
      if (req.url === '/history/p2')
        return sendJson(res, { p2: { outputs: { '1': { images: [{ filename: 'a.png', type: 'output' }] } } } });
      res.writeHead(200, { 'content-type': 'image/png' });
      res.end(PNG);
    });
    const provider = createImageProvider(
      testConfig({ IMAGE_PROVIDER: 'comfyui', IMAGE_BASE_URL: comfy.url, COMFYUI_WORKFLOW: file }),
    )!;
    expect(provider.name).toBe('comfyui');
    await provider.generate(LOOK);
    const queued = JSON.parse(comfy.seen[0]!.body) as { prompt: Record<string, { inputs: { text: string } }> };
    expect(queued.prompt['1']!.inputs.text).toMatch(/^portrait, A photo of Mia/);
  });

  it('fails when ComfyUI reports an error', async () => {
    const comfy = await fakes.start((req, res) => {
      if (req.url === '/prompt') return sendJson(res, { prompt_id: 'bad' });
      sendJson(res, { bad: { status: { status_str: 'error', completed: false } } });
    });
    await expect(new ComfyUiImageProvider({ baseUrl: comfy.url, pollIntervalMs: 5 }).generate(LOOK)).rejects.toThrow(
      /error/,
    );
  });
});

describe('OpenAI-compatible provider', () => {
  it('posts to /images/generations with the key and decodes b64_json', async () => {
    const api = await fakes.start((req, res) => {
      if (req.method === 'POST' && req.url === '/v1/images/generations')
        return sendJson(res, { created: 1, data: [{ b64_json: PNG.toString('base64') }] });
      sendJson(res, {}, 404);
    });
    const provider = createImageProvider(
      testConfig({
        IMAGE_PROVIDER: 'openai',
        IMAGE_BASE_URL: `${api.url}/v1`,
        IMAGE_API_KEY: 'sk-test',
        IMAGE_MODEL: 'sd-xl',
      }),
    )!;
    const image = await provider.generate(LOOK);
    expect(image.data.equals(PNG)).toBe(true);
    const request = api.seen[0]!;
    expect(request.headers.authorization).toBe('Bearer sk-test');
    expect(JSON.parse(request.body)).toMatchObject({ model: 'sd-xl', n: 1, response_format: 'b64_json' });
    expect(JSON.parse(request.body).prompt).toContain('24-year-old adult');
  });

  it('fails on an error answer (the service then falls back to the gallery)', async () => {
    const api = await fakes.start((_req, res) => sendJson(res, { error: { message: 'busy' } }, 503));
    await expect(new OpenAiImageProvider({ baseUrl: api.url, model: 'gpt-image-1' }).generate(LOOK)).rejects.toThrow(
      /503/,
    );
    expect(JSON.parse(api.seen[0]!.body)).not.toHaveProperty('response_format');
  });

  it('is not created for the gallery (the default)', () => {
    expect(createImageProvider(testConfig())).toBeNull();
  });
});
