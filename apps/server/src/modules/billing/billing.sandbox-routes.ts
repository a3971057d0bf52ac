import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import {
  ApiErrorSchema,
  isSubscriptionPlan,
  SandboxDecisionResponseSchema,
  SandboxPaymentParamsSchema,
  SandboxPaymentSchema,
  SUBSCRIPTION_CATALOGUE,
  type PlanId,
} from '@reverie/shared';
import type { Database } from '../../db/client.js';
import { AppError } from '../../lib/errors.js';
import { currentUserId, requireUser } from '../../plugins/auth.js';
import type { PaymentProvider } from '../../providers/payments/index.js';
import {
  SANDBOX_SIGNATURE_HEADER,
  SandboxPaymentProvider,
  sandboxEventBody,
} from '../../providers/payments/sandbox.js';
import { findPayment } from './billing.repository.js';

const DAY_MS = 24 * 60 * 60 * 1000;

/**
 * The sandbox provider's checkout. Its page is a page of the web app
 * (`/checkout/sandbox/{id}`); these routes are its API. Reading, approving and declining
 * need the signed-in payer (Bearer token): another user gets 404 — the payment is not theirs
 * to see — and a guest 401. Approve and Decline deliver a signed webhook to
 * POST /api/payments/webhook/sandbox, the same verified crediting path as real providers.
 */
export const sandboxCheckoutRoutes: FastifyPluginAsyncZod<{
  db: Database;
  provider: PaymentProvider;
}> = async (app, { db, provider }) => {
  if (!(provider instanceof SandboxPaymentProvider)) throw new Error('sandbox routes need the sandbox provider');

  const loadOwn = async (id: string, userId: string) => {
    const payment = await findPayment(db, id);
    if (!payment || payment.provider !== 'sandbox' || payment.userId !== userId)
      throw new AppError('not_found', { status: 404 });
    return payment;
  };

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
    async (request) => {
      const payment = await loadOwn(request.params.id, currentUserId(request));
      const plan = payment.plan as PlanId;
      const trialDays = isSubscriptionPlan(plan) ? SUBSCRIPTION_CATALOGUE[plan].trial_days : 0;
      return {
        id: payment.id,
        plan,
        amount_cents: payment.amountCents,
        currency: payment.currency,
        status: payment.status,
        trial_days: trialDays,
        first_charge_at: trialDays > 0 ? new Date(Date.now() + trialDays * DAY_MS).toISOString() : null,
      };
    },
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
        const payment = await loadOwn(request.params.id, currentUserId(request));
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
        const settled = await findPayment(db, payment.id);
        return { status: settled?.status ?? 'failed', refunded: Boolean(settled?.refundReason) };
      },
    );
  }
};
