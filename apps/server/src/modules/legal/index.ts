import type { Core } from '../../core.js';
import { defineModule } from '../../lib/module.js';
import { legalRoutes } from './legal.routes.js';
import { LegalService } from './legal.service.js';

export type LegalModuleDeps = Pick<Core, 'edition'>;

/** The legal module: the terms and the privacy policy as PDFs (`/terms.pdf`, `/privacy.pdf`). */
export const legalModule = defineModule<LegalModuleDeps>('legal', async (app, deps) => {
  await app.register(legalRoutes, { service: new LegalService(deps), editionId: deps.edition.id });
});
