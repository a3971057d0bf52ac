import fp from 'fastify-plugin';
import type { Core } from '../../core.js';
import { legalRoutes } from './legal.routes.js';
import { LegalService } from './legal.service.js';

export type LegalModuleDeps = Pick<Core, 'edition'>;

/** The legal module: the terms and the privacy policy as PDFs (`/terms.pdf`, `/privacy.pdf`). */
export const legalModule = fp<LegalModuleDeps>(
  async (app, deps) => {
    await app.register(legalRoutes, { service: new LegalService(deps), editionId: deps.edition.id });
  },
  { name: 'legal' },
);
