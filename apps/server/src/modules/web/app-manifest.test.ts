import sharp from 'sharp';
import { describe, expect, it } from 'vitest';
import { EDITIONS } from '@reverie/shared';
import { createTestApp } from '../../../test/helpers.js';

/** The installable app's manifest and icons, per edition (issue 31). */
describe('the web app manifest', () => {
  it('names the edition, its colours, /chat as start, standalone, and icons at 192/512 with maskable ones', async () => {
    const t = await createTestApp({ env: { APP_NAME: 'amoura' } });
    const res = await t.app.inject({ method: 'GET', url: '/manifest.webmanifest' });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toMatch(/application\/manifest\+json/);
    const manifest = res.json();
    expect(manifest).toMatchObject({
      name: 'Amoura',
      short_name: 'Amoura',
      start_url: '/chat',
      display: 'standalone',
      background_color: EDITIONS.amoura.colors.background,
      theme_color: EDITIONS.amoura.colors.background,
    });
    const icons = manifest.icons as Array<{ src: string; sizes: string; purpose: string }>;
    for (const size of [192, 512]) {
      for (const purpose of ['any', 'maskable']) {
        const icon = icons.find((i) => i.sizes === `${size}x${size}` && i.purpose === purpose);
        expect(icon, `${size} ${purpose}`).toBeDefined();
        const png = await t.app.inject({ method: 'GET', url: icon!.src });
        expect(png.headers['content-type']).toBe('image/png');
        const meta = await sharp(png.rawPayload).metadata();
        expect([meta.width, meta.height, meta.format]).toEqual([size, size, 'png']);
      }
    }
    // A maskable icon fills its square with the edition's background (no transparent corners).
    const maskable = await t.app.inject({ method: 'GET', url: '/icons/maskable-192.png' });
    const { data } = await sharp(maskable.rawPayload).raw().toBuffer({ resolveWithObject: true });
    expect([...data.subarray(0, 3)]).toEqual([0x17, 0x0b, 0x0e]);
    expect((await t.app.inject({ method: 'GET', url: '/icons/apple-touch-icon.png' })).statusCode).toBe(200);
    expect((await t.app.inject({ method: 'GET', url: '/icons/icon-64.png' })).statusCode).toBe(404);
  });
});
