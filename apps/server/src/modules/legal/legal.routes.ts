import fs from 'node:fs/promises';
import path from 'node:path';
import type { FastifyPluginAsync } from 'fastify';
import type { Edition } from '@reverie/shared';
import { serverRoot } from '../../lib/paths.js';
import { fillTemplate } from '../../lib/templates.js';
import { renderMarkdownPdf } from './legal-pdf.js';

const DOCUMENTS = {
  terms: 'Terms and Conditions',
  privacy: 'Privacy Policy',
} as const;
type DocumentId = keyof typeof DOCUMENTS;

export interface LegalRoutesOptions {
  edition: Edition;
  /** Folder holding terms.md and privacy.md; defaults to the shipped content/legal. */
  legalDir?: string;
}

/**
 * `/terms.pdf` and `/privacy.pdf`: Markdown sources rendered to PDF with the edition's
 * name, domain and support address, rendered once and kept in memory.
 */
export const legalRoutes: FastifyPluginAsync<LegalRoutesOptions> = async (app, options) => {
  const dir = options.legalDir ?? path.join(serverRoot(), 'content', 'legal');
  const cache = new Map<DocumentId, Promise<{ pdf: Buffer; updated: Date }>>();

  async function build(id: DocumentId) {
    const file = path.join(dir, `${id}.md`);
    const [source, stat] = await Promise.all([fs.readFile(file, 'utf8'), fs.stat(file)]);
    const updated = stat.mtime;
    const markdown = fillTemplate(source, {
      name: options.edition.name,
      domain: options.edition.domain,
      support_email: options.edition.supportEmail,
      updated: updated.toISOString().slice(0, 10),
    });
    const pdf = await renderMarkdownPdf(markdown, {
      title: `${options.edition.name} — ${DOCUMENTS[id]}`,
      author: options.edition.name,
    });
    return { pdf, updated };
  }

  for (const id of Object.keys(DOCUMENTS) as DocumentId[]) {
    app.get(`/${id}.pdf`, { schema: { hide: true } }, async (_request, reply) => {
      let pending = cache.get(id);
      if (!pending) {
        pending = build(id);
        cache.set(id, pending);
        pending.catch(() => cache.delete(id));
      }
      const { pdf, updated } = await pending;
      return reply
        .header('content-type', 'application/pdf')
        .header('content-disposition', `inline; filename="${options.edition.id}-${id}.pdf"`)
        .header('last-modified', updated.toUTCString())
        .header('cache-control', 'public, max-age=3600')
        .send(pdf);
    });
  }
};
