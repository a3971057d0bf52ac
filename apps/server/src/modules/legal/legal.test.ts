import { describe, expect, it } from 'vitest';
import { createTestApp } from '../../../test/helpers.js';
import { getEdition } from '@reverie/shared';

describe('legal documents', async () => {
  const { app } = await createTestApp({ env: { APP_NAME: 'amoura' } });

  it('dates a document by its text (front matter), not by the file time (issue 26)', async () => {
    const fs = await import('node:fs/promises');
    const os = await import('node:os');
    const path = await import('node:path');
    const { LegalService } = await import('./legal.service.js');
    const dir = await fs.mkdtemp(path.join(os.tmpdir(), 'legal-'));
    await fs.writeFile(
      path.join(dir, 'terms.md'),
      '---\nupdated: 2026-03-04\n---\n# Terms\n\nLast updated: {{updated}}\n',
    );
    const touched = new Date('2030-01-01T00:00:00Z');
    await fs.utimes(path.join(dir, 'terms.md'), touched, touched);
    const service = new LegalService({ edition: getEdition('amoura'), legalDir: dir });
    const { updated } = await service.document('terms');
    expect(updated.toISOString().slice(0, 10)).toBe('2026-03-04');
    await fs.rm(dir, { recursive: true });
  });

  for (const doc of ['terms', 'privacy']) {
    it(`renders /${doc}.pdf as a PDF for the edition`, async () => {
      const res = await app.inject(`/${doc}.pdf`);
      expect(res.statusCode).toBe(200);
      expect(res.headers['content-type']).toBe('application/pdf');
      expect(res.headers['content-disposition']).toContain(`amoura-${doc}.pdf`);
      expect(res.rawPayload.subarray(0, 5).toString()).toBe('%PDF-');
      expect(res.rawPayload.length).toBeGreaterThan(5000);
      // The document title carries the edition name (PDF info dictionary).
      expect(res.rawPayload.toString('latin1')).toContain('Amoura');
      // Last-Modified is the date the text last changed (its front matter).
      expect(res.headers['last-modified']).toBe(new Date('2026-11-27T00:00:00Z').toUTCString());
    });
  }
});
