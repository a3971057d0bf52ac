import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { presentOutboxMail, renderMailboxPage } from './mailbox.presenter.js';
import type { MailboxService } from './mailbox.service.js';

/**
 * The local outbox (development only): `/dev/mailbox` lists the last 100 mails,
 * `/dev/mailbox/{id}` shows one as sent, `/dev/mailbox.json` answers them as JSON.
 */
export const mailboxRoutes: FastifyPluginAsyncZod<{ service: MailboxService }> = async (app, { service }) => {
  app.get('/dev/mailbox.json', { schema: { hide: true } }, async () => (await service.latest()).map(presentOutboxMail));

  app.get('/dev/mailbox', { schema: { hide: true } }, async (_request, reply) =>
    reply.header('content-type', 'text/html; charset=utf-8').send(renderMailboxPage(await service.latest())),
  );

  app.get(
    '/dev/mailbox/:id',
    { schema: { hide: true, params: z.object({ id: z.coerce.number().int() }) } },
    async (request, reply) => {
      const mail = await service.get(request.params.id);
      // The mail's own HTML, shown as the recipient would see it.
      return reply
        .header('content-type', 'text/html; charset=utf-8')
        .header('content-security-policy', "default-src 'none'; style-src 'unsafe-inline'; img-src data: https:")
        .send(mail.html);
    },
  );
};
