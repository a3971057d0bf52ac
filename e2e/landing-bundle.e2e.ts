import fs from 'node:fs';
import path from 'node:path';
import zlib from 'node:zlib';
import { describe, expect, it } from 'vitest';
// Plain JavaScript shared with the landing-js bench.
import { chunkSources, landingChunks } from '../bench/support/landing-graph.mjs';
import { useBrowser } from './harness';
import { repoRoot } from './support/app-server.mjs';

/**
 * The first visit to `/` on the built app (global setup builds it): what its JavaScript
 * contains, that the files are precompressed, and what index.html paints before any script.
 */
const dist = path.join(repoRoot, 'apps/web/dist');
const browser = useBrowser();

describe('the landing page bundle', () => {
  const chunks = landingChunks(dist) as { file: string; key: string; part: 'entry' | 'route' }[];

  it('walks the entry, its preloads and the page of /', () => {
    expect(chunks.filter((chunk) => chunk.part === 'entry').length).toBeGreaterThan(1);
    expect(chunks.some((chunk) => chunk.key === 'src/app/routes/explore.tsx')).toBe(true);
  });

  it('holds no zod and no Radix Dialog (schemas and dialogs load when needed)', () => {
    const offenders = chunks.flatMap((chunk) =>
      chunkSources(dist, chunk.file)
        .filter((source: string) => /node_modules\/(zod|@radix-ui\/react-dialog)\//.test(source))
        .map((source: string) => `${chunk.file}: ${source.replace(/^.*node_modules\//, '')}`),
    );
    expect(offenders).toEqual([]);
    // The source maps are what the check reads: they must be there.
    expect(chunkSources(dist, chunks[0]!.file).length).toBeGreaterThan(0);
  });

  it('stays within 150 kB gzipped (entry, preloads and the page of /; the landing-js bench)', () => {
    const gzipped = chunks.reduce(
      (total, chunk) => total + zlib.gzipSync(fs.readFileSync(path.join(dist, chunk.file)), { level: 9 }).length,
      0,
    );
    expect(gzipped / 1000).toBeLessThanOrEqual(150);
  });

  it('holds no i18next (the translator is lib/translator.ts)', () => {
    const offenders = chunks.flatMap((chunk) =>
      chunkSources(dist, chunk.file).filter((source: string) => /node_modules\/(i18next|react-i18next)\//.test(source)),
    );
    expect(offenders).toEqual([]);
  });

  it('has a brotli and a gzip copy of every landing chunk', () => {
    for (const chunk of chunks) {
      const file = path.join(dist, chunk.file);
      if (fs.statSync(file).size < 1024) continue;
      expect(fs.existsSync(`${file}.br`), `${chunk.file}.br`).toBe(true);
      expect(fs.existsSync(`${file}.gz`), `${chunk.file}.gz`).toBe(true);
    }
  });
});

describe('index.html before the scripts', () => {
  for (const edition of ['reverie', 'amoura'] as const) {
    it(`paints the ${edition} logo and a skeleton with no script or stylesheet, replaced by the app`, async () => {
      const page = await browser.page({ viewport: 'phone', edition });
      await page.route('**/*.{js,css}', (route) => route.abort());
      await page.goto('/');
      const skeleton = page.getByTestId('boot-skeleton');
      await skeleton.waitFor();
      expect(await skeleton.locator('svg').isVisible()).toBe(true);
      const name = await skeleton
        .locator('.sk-name')
        .evaluate((node) => getComputedStyle(node, '::after').content.replaceAll('"', ''));
      expect(name).toBe(edition === 'amoura' ? 'Amoura' : 'Reverie');
      expect(await skeleton.locator('.sk-card').first().isVisible()).toBe(true);

      const app = await browser.page({ viewport: 'phone', edition, ageConfirmed: true });
      await app.goto('/');
      await app.getByTestId('character-card').first().waitFor({ timeout: 30_000 });
      expect(await app.getByTestId('boot-skeleton').count()).toBe(0);
    });
  }
});
