import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FakeImageModeration } from '../src/providers/image-moderation/index.js';
import type { ImageJudgement } from '../src/providers/image-moderation/index.js';
import { createUser } from './factories.js';
import { createTestApp, type TestApp } from './helpers.js';
import { multipartBody } from './multipart.js';

/** A judge that holds every picture until released: the picture work stays busy meanwhile. */
class HeldImageModeration extends FakeImageModeration {
  private releases: (() => void)[] = [];
  started = 0;
  override async judge(bytes: Buffer): Promise<ImageJudgement> {
    this.started++;
    await new Promise<void>((resolve) => this.releases.push(resolve));
    return super.judge(bytes);
  }
  release(): void {
    for (const release of this.releases.splice(0)) release();
  }
}

let t: TestApp;
const judge = new HeldImageModeration();
// Uploads are spooled under os.tmpdir(): this file's own, so that another file's uploads
// (another worker, at the same moment) are not counted as this one's.
const systemTmp = process.env.TMPDIR;
const ownTmp = fs.mkdtempSync(path.join(os.tmpdir(), 'reverie-upload-queue-'));

afterAll(() => {
  if (systemTmp === undefined) delete process.env.TMPDIR;
  else process.env.TMPDIR = systemTmp;
  fs.rmSync(ownTmp, { recursive: true, force: true });
});

beforeAll(async () => {
  process.env.TMPDIR = ownTmp;
  t = await createTestApp({
    env: { IMAGE_CONCURRENCY: '1', IMAGE_QUEUE: '1', CHARACTER_PHOTOS_PER_HOUR: '100' },
    imageModeration: judge,
  });
});

const spoolDir = () => path.join(os.tmpdir(), 'reverie-uploads');
const spooled = () => (fs.existsSync(spoolDir()) ? fs.readdirSync(spoolDir()).length : 0);

describe('uploads never stall the server (issue 27 item 3)', () => {
  it('one picture at a time, one waiting, the next answered 503 uploads_busy with Retry-After; health meanwhile', async () => {
    const { auth } = await createUser(t.app, t.database.db);
    const photo = await sharp({ create: { width: 200, height: 200, channels: 3, background: '#22aa66' } })
      .jpeg()
      .toBuffer();
    const upload = () => {
      const form = multipartBody({ name: 'Queued', age: '30', description: 'Waits its turn.' }, [
        { field: 'photo', filename: 'p.jpg', contentType: 'image/jpeg', data: photo },
      ]);
      // Started now (an inject chain runs only once awaited or `then`ed).
      return t.app
        .inject({
          method: 'POST',
          url: '/api/bot/create',
          headers: { ...auth, ...form.headers },
          payload: form.payload,
        })
        .then((response) => response);
    };
    const before = spooled();
    const first = upload();
    // Until the judge holds the first picture; an answer before that is the failure to show
    // (never a silent wait until the test's timeout).
    let early: { statusCode: number; body: string } | null = null;
    void first.then((response) => (early = judge.started < 1 ? response : null));
    while (judge.started < 1) {
      if (early) throw new Error(`the first upload was answered before it was judged: ${JSON.stringify(early)}`);
      await new Promise((resolve) => setTimeout(resolve, 10));
    }
    const second = upload();
    // The second waits on disk for its turn.
    for (const deadline = Date.now() + 15_000; Date.now() < deadline && spooled() <= before;)
      await new Promise((resolve) => setTimeout(resolve, 10));
    expect(spooled()).toBeGreaterThan(before);
    const third = upload();
    // The queue holds one, so one of the two later uploads is refused at once: the third —
    // unless the second's body was still being written to disk when the third came (an upload
    // joins the queue once spooled; seen in a full run on a loaded machine), and then the
    // third took the place and the second is refused when it gets there. Never both waiting.
    const refusedOne = Promise.race([
      second.then((response) => ({ response, queued: third })),
      third.then((response) => ({ response, queued: second })),
    ]);
    let timer: ReturnType<typeof setTimeout> | undefined;
    const noneRefused = new Promise<never>((_, reject) => {
      timer = setTimeout(() => reject(new Error('neither later upload was refused: both wait in the queue')), 15_000);
    });
    const { response: refused, queued } = await Promise.race([refusedOne, noneRefused]).finally(() =>
      clearTimeout(timer),
    );
    expect(refused.statusCode).toBe(503);
    expect(refused.json().code).toBe('uploads_busy');
    expect(Number(refused.headers['retry-after'])).toBeGreaterThan(0);
    // The event loop is free: health answers at once.
    const health = await t.app.inject({ url: '/api/health' });
    expect(health.statusCode).toBe(200);
    // Released, both queued uploads finish and their spooled files are gone.
    const releaser = setInterval(() => judge.release(), 10);
    try {
      expect((await first).statusCode).toBe(201);
      expect((await queued).statusCode).toBe(201);
    } finally {
      clearInterval(releaser);
    }
    expect(spooled()).toBe(before);
  }, 120_000);
});
