import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import {
  ApiErrorSchema,
  SandboxDecisionResponseSchema,
  SandboxPaymentParamsSchema,
  SandboxPaymentSchema,
} from '@reverie/shared';
import { AppError } from '../../lib/errors.js';
import { currentUserId, requireUser } from '../../plugins/auth.js';
import type { PaymentProvider } from '../../providers/payments/index.js';
import {
  SANDBOX_SIGNATURE_HEADER,
  SandboxPaymentProvider,
  sandboxEventBody,
} from '../../providers/payments/sandbox.js';
import type { BillingService } from './billing.service.js';

/**
 * The sandbox provider's checkout. Its page is a page of the web app
 * (`/checkout/sandbox/{id}`); these routes are its API. Reading, approving and declining
 * need the signed-in payer (Bearer token): another user gets 404 — the payment is not theirs
 * to see — and a guest 401. Approve and Decline deliver a signed webhook to
 * POST /api/payments/webhook/sandbox, the same verified crediting path as real providers.
 */
export const sandboxCheckoutRoutes: FastifyPluginAsyncZod<{
  service: BillingService;
  provider: PaymentProvider;
}> = async (app, { service, provider }) => {
  if (!(provider instanceof SandboxPaymentProvider)) throw new Error('sandbox routes need the sandbox provider');

  app.get(
    '/api/payments/sandbox/checkout/:id',
    {
      preHandler: requireUser,
      schema: {
        tags: ['billing'],
        summary: 'A sandbox checkout, for its page (the payer only)',
        params: SandboxPaymentParamsSchema,
        response: { 200: SandboxPaymentSchema, 401: ApiErrorSchema, 404: ApiErrorSchema },
      },
    },
    async (request) => service.getSandboxPayment(request.params.id, currentUserId(request)),
  );

  for (const verb of ['approve', 'decline'] as const) {
    app.post(
      `/api/payments/sandbox/checkout/:id/${verb}`,
      {
        preHandler: requireUser,
        config: { rateLimit: { max: 30, timeWindow: 60_000 } },
        schema: {
          tags: ['billing'],
          summary:
            verb === 'approve'
              ? 'Approve a sandbox checkout (the payer only): a signed webhook credits it'
              : 'Decline a sandbox checkout (the payer only)',
          params: SandboxPaymentParamsSchema,
          response: {
            200: SandboxDecisionResponseSchema,
            401: ApiErrorSchema,
            404: ApiErrorSchema,
            502: ApiErrorSchema,
          },
        },
      },
      async (request) => {
        const payment = await service.findOwnSandboxPayment(request.params.id, currentUserId(request));
        if (payment.status !== 'pending') return { status: payment.status, refunded: payment.refundReason !== null };
        const body = sandboxEventBody(verb === 'approve' ? 'payment.succeeded' : 'payment.failed', payment.id);
        // Delivered through the public webhook route, exactly as a provider would.
        const delivered = await app.inject({
          method: 'POST',
          url: '/api/payments/webhook/sandbox',
          headers: { 'content-type': 'application/json', [SANDBOX_SIGNATURE_HEADER]: provider.signWebhook(body) },
          payload: body,
        });
        if (delivered.statusCode !== 200) {
          request.log.error({ status: delivered.statusCode }, 'sandbox webhook failed');
          throw new AppError('payment_error', { status: 502 });
        }
        return service.settledSandboxPayment(payment.id);
      },
    );
  }
};
