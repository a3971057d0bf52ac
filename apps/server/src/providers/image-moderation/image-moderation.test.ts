import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ModerationProvider } from '../moderation/index.js';
import { testConfig } from '../../../test/helpers.js';
import { createImageModeration } from './index.js';
import {
  combineVerdicts,
  DEFAULT_IMAGE_MODERATION,
  FakeImageModeration,
  LocalImageModeration,
  localVerdict,
  NoImageModeration,
} from './image-moderation.js';
import { JudgeThread, JudgeTimeoutError } from './judge-thread.js';

const FACES = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../../test/fixtures/faces');
const picture = (file: string) => fs.readFileSync(path.join(FACES, file));

/** One judge for the file: the models load once (the shared worker thread). */
const judge = new LocalImageModeration(DEFAULT_IMAGE_MODERATION);
beforeAll(() => judge.warm(), 120_000);

describe('the local judge on the labelled test pictures', () => {
  it.each([
    ['astronaut-nasa.png', 'ok'],
    ['grace-hopper-usn.jpg', 'ok'],
    ['cameraman.png', 'ok'],
    ['coffee-cc0.png', 'ok'],
    ['adversarial-minor-astronaut.png', 'minor'],
    ['adversarial-explicit-coffee.png', 'explicit'],
  ])('%s → %s', async (file, verdict) => {
    const result = await judge.judge(picture(file));
    expect(result.verdict).toBe(verdict);
    expect(result.judge).toBe('local');
    const sum = Object.values(result.nudity).reduce((a, b) => a + b, 0);
    expect(sum).toBeGreaterThan(0.97);
  });

  it("gives the adult's face a box, an age of 18 or more and a confident score", async () => {
    const result = await judge.judge(picture('astronaut-nasa.png'));
    expect(result.faces).toHaveLength(1);
    const [face] = result.faces;
    expect(face!.score).toBeGreaterThan(0.9);
    expect(face!.age).toBeGreaterThanOrEqual(DEFAULT_IMAGE_MODERATION.minAge);
    expect(face!.box.width).toBeGreaterThan(50);
  });
});

describe('the worker thread', () => {
  it('survives a crash: killed, the next picture starts a new worker and is judged', async () => {
    const starts = judge.thread.starts;
    await judge.thread.kill();
    const result = await judge.judge(picture('astronaut-nasa.png'));
    expect(result.verdict).toBe('ok');
    expect(judge.thread.starts).toBe(starts + 1);
  }, 60_000);

  it('a job in flight when the worker dies fails; the one queued after it is judged', async () => {
    // Raw pixels straight to the thread: the job is posted at once, then the worker is killed.
    const pixels = new Uint8Array(512 * 512 * 3).fill(128);
    const inFlight = judge.thread.judge(pixels, 512, 512, 0.6);
    const queued = judge.judge(picture('astronaut-nasa.png'));
    await new Promise((resolve) => setTimeout(resolve, 30));
    await judge.thread.kill();
    await expect(inFlight).rejects.toThrow();
    expect((await queued).verdict).toBe('ok');
  }, 60_000);

  it('a job over its time limit fails and takes its worker with it', async () => {
    const slow = new JudgeThread({ timeoutMs: 50 });
    await expect(slow.warm()).rejects.toBeInstanceOf(JudgeTimeoutError);
    await slow.kill();
  });

  it('refuses jobs beyond its queue at once', async () => {
    const thread = new JudgeThread({ timeoutMs: 60_000, maxQueue: 1 });
    const first = thread.warm();
    await expect(thread.warm()).rejects.toThrow(/busy/);
    await first;
    await thread.kill();
  }, 60_000);
});

describe('verdicts', () => {
  const nudity = { drawing: 0, hentai: 0, neutral: 1, porn: 0, sexy: 0 };
  const face = (age: number, score: number) => ({ box: { x: 0, y: 0, width: 80, height: 80 }, age, score });
  const settings = DEFAULT_IMAGE_MODERATION;

  it('a confident face under the minimum age (18 + margin) is a minor', () => {
    expect(localVerdict([face(20.9, 0.9)], nudity, settings)).toBe('minor');
    expect(localVerdict([face(21, 0.9)], nudity, settings)).toBe('ok');
    expect(localVerdict([face(40, 0.99), face(12, 0.8)], nudity, settings)).toBe('minor');
  });

  it('a weak face (a drawing) does not count', () => {
    expect(localVerdict([face(8, 0.59)], nudity, settings)).toBe('ok');
  });

  it('porn + hentai from the threshold on is explicit; a minor wins over explicit', () => {
    expect(localVerdict([], { ...nudity, porn: 0.4, hentai: 0.2 }, settings)).toBe('explicit');
    expect(localVerdict([], { ...nudity, porn: 0.3, sexy: 0.7 }, settings)).toBe('ok');
    expect(localVerdict([face(10, 0.9)], { ...nudity, porn: 0.9 }, settings)).toBe('minor');
  });

  it("combines the remote provider's verdict: a minor on either side refuses", () => {
    expect(combineVerdicts('ok', { flagged: true, categories: ['sexual', 'sexual/minors'] })).toBe('minor');
    expect(combineVerdicts('ok', { flagged: true, categories: ['sexual'] })).toBe('explicit');
    expect(combineVerdicts('explicit', { flagged: false, categories: [] })).toBe('explicit');
    expect(combineVerdicts('minor', { flagged: false, categories: [] })).toBe('minor');
    expect(combineVerdicts('ok', { flagged: true, categories: ['violence/graphic'] })).toBe('minor');
  });
});

describe('the remote provider on top', () => {
  const asked: string[] = [];
  const remote = (categories: string[]): ModerationProvider => ({
    name: 'openai',
    canAutoApprove: true,
    checkText: async () => ({ flagged: false }),
    checkImage: async (image, contentType) => {
      asked.push(`${contentType}:${image.length > 0}`);
      return { flagged: categories.length > 0, categories };
    },
  });

  it('is asked about the picture (as WebP) and its sexual/minors refuses an adult-looking picture', async () => {
    const local = new LocalImageModeration(DEFAULT_IMAGE_MODERATION, remote(['sexual/minors']));
    const result = await local.judge(picture('astronaut-nasa.png'));
    expect(result.verdict).toBe('minor');
    expect(result.remote).toEqual({ flagged: true, categories: ['sexual/minors'] });
    expect(asked.at(-1)).toBe('image/webp:true');
  });

  it('with IMAGE_MODERATION=none only the remote provider judges', async () => {
    expect((await new NoImageModeration(remote(['sexual'])).judge(picture('coffee-cc0.png'))).verdict).toBe('explicit');
    const none = await new NoImageModeration().judge(picture('adversarial-minor-astronaut.png'));
    expect(none).toMatchObject({ verdict: 'ok', judge: 'none', faces: [] });
  });

  it('the test-only fake decodes the picture like the local judge, finds nothing, and asks the remote provider', async () => {
    const fake = new FakeImageModeration(remote(['sexual']));
    const marked = await fake.judge(picture('coffee-cc0.png'));
    expect(marked).toMatchObject({ verdict: 'explicit', judge: 'fake', faces: [] });
    expect(asked.at(-1)).toBe('image/webp:true');
    expect((await new FakeImageModeration(remote(['sexual/minors'])).judge(picture('cameraman.png'))).verdict).toBe(
      'minor',
    );
    // No models: the adversarial pictures the local judge refuses or marks pass it.
    const plain = new FakeImageModeration();
    expect(await plain.judge(picture('adversarial-minor-astronaut.png'))).toMatchObject({ verdict: 'ok', faces: [] });
    expect(plain.judged).toBe(1);
    // Bytes sharp cannot read fail as they do in the local judge (the upload answers 503).
    await expect(plain.judge(Buffer.from('not a picture'))).rejects.toThrow();
    await expect(judge.judge(Buffer.from('not a picture'))).rejects.toThrow();
  });
});

describe('configuration', () => {
  it('IMAGE_MODERATION defaults to local; none is refused in production unless acknowledged', () => {
    expect(createImageModeration(testConfig(), undefined).name).toBe('local');
    expect(createImageModeration(testConfig({ IMAGE_MODERATION: 'none' }), undefined).name).toBe('none');
    const production = { NODE_ENV: 'production', IMAGE_MODERATION: 'none' };
    expect(() => testConfig(production)).toThrow(/IMAGE_MODERATION_NONE_ACKNOWLEDGED/);
    expect(testConfig({ ...production, IMAGE_MODERATION_NONE_ACKNOWLEDGED: 'true' }).IMAGE_MODERATION).toBe('none');
  });

  it('IMAGE_MODERATION=fake is taken only with NODE_ENV=test, never in production nor development', () => {
    expect(createImageModeration(testConfig({ IMAGE_MODERATION: 'fake' }), undefined).name).toBe('fake');
    for (const NODE_ENV of ['production', 'development']) {
      expect(() => testConfig({ NODE_ENV, IMAGE_MODERATION: 'fake' })).toThrow(/"fake" is for tests only/);
      expect(() =>
        testConfig({ NODE_ENV, IMAGE_MODERATION: 'fake', IMAGE_MODERATION_NONE_ACKNOWLEDGED: 'true' }),
      ).toThrow(/"fake" is for tests only/);
    }
  });
});

afterAll(() => judge.thread.kill());
