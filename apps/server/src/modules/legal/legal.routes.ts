import type { FastifyPluginAsync } from 'fastify';
import { LEGAL_DOCUMENTS, type LegalDocumentId, type LegalService } from './legal.service.js';

/** `/terms.pdf` and `/privacy.pdf`, named after the edition, cached by browsers for an hour. */
export const legalRoutes: FastifyPluginAsync<{ service: LegalService; editionId: string }> = async (
  app,
  { service, editionId },
) => {
  for (const id of Object.keys(LEGAL_DOCUMENTS) as LegalDocumentId[]) {
    app.get(`/${id}.pdf`, { schema: { hide: true } }, async (_request, reply) => {
      const { pdf, updated } = await service.document(id);
      return reply
        .header('content-type', 'application/pdf')
        .header('content-disposition', `inline; filename="${editionId}-${id}.pdf"`)
        .header('last-modified', updated.toUTCString())
        .header('cache-control', 'public, max-age=3600')
        .send(pdf);
    });
  }
};
