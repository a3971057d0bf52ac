import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import {
  AdminLedgerCheckSchema,
  AdminPaymentPageSchema,
  AdminPaymentsQuerySchema,
  AdminWebhookPageSchema,
  AdminWebhookQuerySchema,
  ApiErrorSchema,
} from '@reverie/shared';
import type { AdminPaymentsService } from './payments.service.js';

const denied = { 401: ApiErrorSchema, 403: ApiErrorSchema };

/** The Payments and ledger section: payments, webhook deliveries, the ledger invariant. */
export const paymentsRoutes: FastifyPluginAsyncZod<{ service: AdminPaymentsService }> = async (app, { service }) => {
  app.get(
    '/payments',
    {
      schema: {
        tags: ['admin'],
        summary: 'Payments, newest first (keyset pages), by status, provider or user',
        querystring: AdminPaymentsQuerySchema,
        response: { 200: AdminPaymentPageSchema, 400: ApiErrorSchema, ...denied },
      },
    },
    async (request) => service.listPayments(request.query),
  );

  app.get(
    '/webhook-deliveries',
    {
      schema: {
        tags: ['admin'],
        summary: 'Payment webhook deliveries and their outcome, newest first (keyset pages)',
        querystring: AdminWebhookQuerySchema,
        response: { 200: AdminWebhookPageSchema, 400: ApiErrorSchema, ...denied },
      },
    },
    async (request) => service.listWebhookDeliveries(request.query),
  );

  app.get(
    '/ledger/check',
    {
      schema: {
        tags: ['admin'],
        summary: 'The ledger invariant: users whose balance differs from the sum of their ledger entries',
        response: { 200: AdminLedgerCheckSchema, ...denied },
      },
    },
    async () => service.checkLedger(),
  );
};
