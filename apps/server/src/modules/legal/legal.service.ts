import fs from 'node:fs/promises';
import path from 'node:path';
import type { Edition } from '@reverie/shared';
import { serverRoot } from '../../lib/paths.js';
import { fillTemplate, parseFrontMatter } from '../../lib/templates.js';
import { renderMarkdownPdf } from './legal-pdf.js';

export const LEGAL_DOCUMENTS = {
  terms: 'Terms and Conditions',
  privacy: 'Privacy Policy',
} as const;
export type LegalDocumentId = keyof typeof LEGAL_DOCUMENTS;

export interface LegalServiceDeps {
  edition: Edition;
  /** Folder holding terms.md and privacy.md; defaults to the shipped content/legal. */
  legalDir?: string;
}

/**
 * The legal documents as PDFs: Markdown sources rendered with the edition's name, domain and
 * support address, rendered once and kept in memory (a failed rendering is tried again).
 */
export class LegalService {
  private readonly cache = new Map<LegalDocumentId, Promise<{ pdf: Buffer; updated: Date }>>();
  private readonly dir: string;

  constructor(private readonly deps: LegalServiceDeps) {
    this.dir = deps.legalDir ?? path.join(serverRoot(), 'content', 'legal');
  }

  /** The PDF of a document and when its source last changed. */
  document(id: LegalDocumentId): Promise<{ pdf: Buffer; updated: Date }> {
    let pending = this.cache.get(id);
    if (!pending) {
      pending = this.render(id);
      this.cache.set(id, pending);
      pending.catch(() => this.cache.delete(id));
    }
    return pending;
  }

  private async render(id: LegalDocumentId) {
    const { edition } = this.deps;
    const file = path.join(this.dir, `${id}.md`);
    // The date the text last changed is the document's own (`updated:` in its front matter),
    // never the file's time, which a checkout, a copy or an image build resets.
    const { data, body } = parseFrontMatter(await fs.readFile(file, 'utf8'));
    const updated = new Date(`${data.updated ?? ''}T00:00:00Z`);
    if (!/^\d{4}-\d{2}-\d{2}$/.test(data.updated ?? '') || Number.isNaN(updated.getTime()))
      throw new Error(`${id}.md has no "updated: YYYY-MM-DD" front matter`);
    const markdown = fillTemplate(body, {
      name: edition.name,
      domain: edition.domain,
      support_email: edition.supportEmail,
      updated: updated.toISOString().slice(0, 10),
    });
    const pdf = await renderMarkdownPdf(markdown, {
      title: `${edition.name} — ${LEGAL_DOCUMENTS[id]}`,
      author: edition.name,
    });
    return { pdf, updated };
  }
}
