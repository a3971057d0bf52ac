import { describe, expect, it } from 'vitest';
import { createTestApp } from '../../../test/helpers.js';

describe('legal documents', async () => {
  const { app } = await createTestApp({ env: { APP_NAME: 'amoura' } });

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
    });
  }
});
