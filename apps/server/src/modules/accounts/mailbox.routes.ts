import { desc, eq } from 'drizzle-orm';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { Database } from '../../db/client.js';
import { mailOutbox } from '../../db/schema.js';
import { notFound } from '../../lib/errors.js';
import { escapeHtml } from '../../lib/html.js';

/**
 * The local outbox (development only): `/dev/mailbox` lists the last 100 mails,
 * `/dev/mailbox/{id}` shows one as sent, `/dev/mailbox.json` answers them as JSON.
 */
export const mailboxRoutes: FastifyPluginAsyncZod<{ db: Database }> = async (app, { db }) => {
  const latest = () => db.select().from(mailOutbox).orderBy(desc(mailOutbox.id)).limit(100);

  app.get('/dev/mailbox.json', { schema: { hide: true } }, async () =>
    (await latest()).map((m) => ({
      id: m.id,
      to: m.toAddress,
      kind: m.kind,
      subject: m.subject,
      text: m.text,
      html: m.html,
      headers: m.headers,
      created_at: m.createdAt.toISOString(),
    })),
  );

  app.get('/dev/mailbox', { schema: { hide: true } }, async (_request, reply) => {
    const rows = await latest();
    const items = rows
      .map(
        (m) =>
          `<tr><td>${m.createdAt.toISOString()}</td><td>${escapeHtml(m.toAddress)}</td><td>${escapeHtml(m.kind)}</td><td><a href="/dev/mailbox/${m.id}">${escapeHtml(m.subject)}</a></td></tr>`,
      )
      .join('');
    return reply
      .header('content-type', 'text/html; charset=utf-8')
      .send(
        `<!doctype html><meta charset="utf-8"><title>Mailbox</title><body style="font-family:sans-serif"><h1>Local outbox</h1><table cellpadding="6"><tr><th>sent</th><th>to</th><th>kind</th><th>subject</th></tr>${items || '<tr><td colspan="4">No mail yet.</td></tr>'}</table></body>`,
      );
  });

  app.get(
    '/dev/mailbox/:id',
    { schema: { hide: true, params: z.object({ id: z.coerce.number().int() }) } },
    async (request, reply) => {
      const [mail] = await db.select().from(mailOutbox).where(eq(mailOutbox.id, request.params.id)).limit(1);
      if (!mail) throw notFound();
      // The mail's own HTML, shown as the recipient would see it.
      return reply
        .header('content-type', 'text/html; charset=utf-8')
        .header('content-security-policy', "default-src 'none'; style-src 'unsafe-inline'; img-src data: https:")
        .send(mail.html);
    },
  );
};
