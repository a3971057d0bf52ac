import type { FastifyRequest } from 'fastify';
import { Counter } from 'prom-client';
import type { FastifyPluginAsyncZod, ZodTypeProvider } from 'fastify-type-provider-zod';
import {
  ApiErrorSchema,
  CancelSubscriptionResponseSchema,
  CheckoutRequestSchema,
  CheckoutResponseSchema,
  ClaimDesiresResponseSchema,
  PaymentProviderParamsSchema,
  PaymentStatusSchema,
  PlansSchema,
  SandboxPaymentParamsSchema,
  SubscriptionOrNullSchema,
  SubscriptionSchema,
  WebhookAckSchema,
} from '@reverie/shared';
import { AppError } from '../../lib/errors.js';
import { currentUserId, requireUser } from '../../plugins/auth.js';
import type { PaymentProviders } from '../../providers/payments/index.js';
import type { PaymentEvent, PaymentProvider } from '../../providers/payments/types.js';
import type { BillingService } from './billing.service.js';
import { sandboxCheckoutRoutes } from './billing.sandbox-routes.js';
import type { WebhookDeliveryInput } from './webhook-deliveries.repository.js';

export interface BillingRoutesOptions {
  service: BillingService;
  providers: PaymentProviders;
}

/**
 * A subscription in its trial whose webhook named only the card's payment method: the
 * provider is asked for the card's fingerprint (one free trial per card). A failure leaves it
 * unknown (logged); the account check still holds.
 */
async function withCardFingerprint(
  provider: PaymentProvider,
  event: PaymentEvent,
  request: FastifyRequest,
): Promise<PaymentEvent> {
  if (event.type !== 'subscription.updated' || event.status !== 'trialing' || !provider.cardFingerprint) return event;
  const payer = event.payer;
  if (!payer?.paymentMethodId || payer.cardFingerprint) return event;
  try {
    const cardFingerprint = await provider.cardFingerprint(payer.paymentMethodId);
    return { ...event, payer: { ...payer, cardFingerprint } };
  } catch (error) {
    request.log.warn({ provider: provider.id, err: error }, 'could not read the card of a trial');
    return event;
  }
}

/**
 * A later charge or a refund whose webhook did not say both the charge and its invoice
 * (Stripe's `invoice.paid` carries its payments only when expanded; a refund names the
 * payment intent, not the invoice): the provider is asked, so a refund of a later charge finds
 * the payment it subtracts from. A failure keeps what the event said (logged).
 */
async function withChargeRefs(
  provider: PaymentProvider,
  event: PaymentEvent,
  request: FastifyRequest,
): Promise<PaymentEvent> {
  try {
    if (event.type === 'charge.succeeded' && event.invoiceId && provider.invoiceChargeRef) {
      const chargeRef = await provider.invoiceChargeRef(event.invoiceId);
      return chargeRef ? { ...event, chargeRef } : event;
    }
    if (event.type === 'payment.refunded' && event.chargeRef && !event.invoiceRef && provider.invoiceOfCharge)
      return { ...event, invoiceRef: await provider.invoiceOfCharge(event.chargeRef) };
  } catch (error) {
    request.log.warn({ provider: provider.id, err: error }, 'could not read the invoice of a charge');
  }
  return event;
}

/** Desires, premium and payments (API.md). */
export const billingRoutes: FastifyPluginAsyncZod<BillingRoutesOptions> = async (app, options) => {
  const { service, providers } = options;

  app.get(
    '/api/billing/plans',
    {
      schema: {
        tags: ['billing'],
        summary:
          'Plans and desire packs with prices (integer cents), the offer and whether this user gets the free trial',
        response: { 200: PlansSchema },
      },
    },
    async (request) => service.plans(request.userId ?? null),
  );

  app.get(
    '/api/billing/payments/:id',
    {
      preHandler: requireUser,
      schema: {
        tags: ['billing'],
        summary: "A payment's outcome for its payer: paid, and already credited? (the checkout return)",
        params: SandboxPaymentParamsSchema,
        response: { 200: PaymentStatusSchema, 401: ApiErrorSchema, 404: ApiErrorSchema },
      },
    },
    async (request) => service.paymentStatus(request.params.id, currentUserId(request)),
  );

  app.post(
    '/api/profile/claim_desires',
    {
      preHandler: requireUser,
      config: { rateLimit: { max: 60, timeWindow: 60_000 } },
      schema: {
        tags: ['billing'],
        summary: 'Claim the daily 100 desires (once every 24 h); claimed=false with next_at otherwise',
        response: { 200: ClaimDesiresResponseSchema, 401: ApiErrorSchema },
      },
    },
    async (request) => service.claimDailyDesires(currentUserId(request)),
  );

  const checkoutRoute = (path: string, kind: 'card' | 'crypto', summary: string) =>
    app.post(
      path,
      {
        preHandler: requireUser,
        config: { rateLimit: { max: 10, timeWindow: 60_000 } },
        schema: {
          tags: ['billing'],
          summary,
          body: CheckoutRequestSchema,
          response: {
            200: CheckoutResponseSchema,
            400: ApiErrorSchema,
            401: ApiErrorSchema,
            409: ApiErrorSchema,
            502: ApiErrorSchema,
            503: ApiErrorSchema,
          },
        },
      },
      async (request) => {
        const { url } = await service.startCheckout(kind, {
          userId: currentUserId(request),
          plan: request.body.plan,
          returnPath: request.body.return_path ?? null,
        });
        return { url };
      },
    );
  checkoutRoute('/api/subscription/create_stripe', 'card', 'Card checkout for a plan or a desire pack');
  checkoutRoute('/api/subscription/create_crypto_payment', 'crypto', 'Crypto checkout for a plan or a desire pack');

  app.get(
    '/api/subscription',
    {
      preHandler: requireUser,
      schema: {
        tags: ['billing'],
        summary: 'The current subscription (plan, status, trial end, renewal or end, provider), or null',
        response: { 200: SubscriptionOrNullSchema, 401: ApiErrorSchema },
      },
    },
    async (request) => service.getSubscription(currentUserId(request)),
  );

  app.post(
    '/api/subscription/cancel_stripe',
    {
      preHandler: requireUser,
      config: { rateLimit: { max: 10, timeWindow: 60_000 } },
      schema: {
        tags: ['billing'],
        summary: 'Cancel the renewal (any provider); premium lasts until ends_at, the period end',
        response: { 200: CancelSubscriptionResponseSchema, 401: ApiErrorSchema, 502: ApiErrorSchema },
      },
    },
    async (request) => service.cancelSubscription(currentUserId(request), new Date(), request.log),
  );

  app.post(
    '/api/subscription/resume',
    {
      preHandler: requireUser,
      config: { rateLimit: { max: 10, timeWindow: 60_000 } },
      schema: {
        tags: ['billing'],
        summary: 'Undo a cancel before the period ends; 409 cannot_resume when there is nothing to resume',
        response: { 200: SubscriptionSchema, 401: ApiErrorSchema, 409: ApiErrorSchema, 502: ApiErrorSchema },
      },
    },
    async (request) => service.resumeSubscription(currentUserId(request), new Date(), request.log),
  );

  // Webhooks: the signature covers the raw bytes, so this scope keeps the body as a Buffer.
  await app.register(async (plain) => {
    const scope = plain.withTypeProvider<ZodTypeProvider>();
    scope.removeAllContentTypeParsers();
    scope.addContentTypeParser('*', { parseAs: 'buffer', bodyLimit: 256 * 1024 }, (_request, body, done) =>
      done(null, body),
    );
    // A delivery whose signature verified is recorded for the admin console once the answer is
    // sent (never the body or a secret; a failure to record is logged without changing the
    // answer). Unsigned or forged requests are only counted in /metrics: anyone can send them,
    // and they must not fill the table.
    const rejected = new Counter({
      name: 'payment_webhooks_rejected_total',
      help: 'Payment webhook requests refused before their signature verified, by provider',
      labelNames: ['provider'] as const,
      registers: [app.metrics],
    });
    const deliveries = new WeakMap<FastifyRequest, Omit<WebhookDeliveryInput, 'httpStatus'>>();
    scope.addHook('onResponse', async (request, reply) => {
      const delivery = deliveries.get(request);
      if (!delivery) {
        const params = request.params as { provider?: unknown } | undefined;
        const named = typeof params?.provider === 'string' ? params.provider : '';
        // Only configured providers as labels: the path is the sender's to choose.
        rejected.inc({ provider: Object.hasOwn(providers.byId, named) ? named : 'unknown' });
        return;
      }
      if (reply.statusCode >= 500) delivery.outcome = 'failed';
      try {
        await service.recordWebhookDelivery({ ...delivery, httpStatus: reply.statusCode });
      } catch (error) {
        request.log.error({ err: error, provider: delivery.provider }, 'could not record a webhook delivery');
      }
    });
    scope.post(
      '/api/payments/webhook/:provider',
      {
        config: { rateLimit: { max: 600, timeWindow: 60_000 } },
        schema: {
          tags: ['billing'],
          summary: "A payment provider's signed webhook; bad or missing signature → 400, nothing credited",
          params: PaymentProviderParamsSchema,
          response: { 200: WebhookAckSchema, 400: ApiErrorSchema, 404: ApiErrorSchema },
        },
      },
      async (request) => {
        const provider = providers.byId[request.params.provider];
        if (!provider) throw new AppError('not_found', { status: 404 });
        const raw = Buffer.isBuffer(request.body) ? request.body : Buffer.alloc(0);
        // Throws (400) unless the signature verifies: nothing is recorded then.
        const parsed = provider.parseWebhook(raw, request.headers);
        const event: PaymentEvent = await withChargeRefs(
          provider,
          await withCardFingerprint(provider, parsed, request),
          request,
        );
        const delivery: Omit<WebhookDeliveryInput, 'httpStatus'> = {
          provider: provider.id,
          eventId: null,
          type: null,
          outcome: 'rejected',
          detail: null,
          paymentId: null,
        };
        deliveries.set(request, delivery);
        delivery.eventId = event.id;
        delivery.type = event.type;
        delivery.paymentId = 'paymentId' in event ? event.paymentId : null;
        if (event.type === 'ignored') delivery.detail = event.reason;
        let handled: Awaited<ReturnType<BillingService['handlePaymentEvent']>>;
        try {
          handled = await service.handlePaymentEvent(provider.id, event);
        } catch (error) {
          delivery.outcome = 'failed';
          delivery.detail = error instanceof AppError ? error.code : 'internal_error';
          throw error;
        }
        const { duplicate, refusedSubscriptionId, endTrialSubscriptionId } = handled;
        delivery.outcome = duplicate ? 'duplicate' : event.type === 'ignored' ? 'ignored' : 'processed';
        if (refusedSubscriptionId) delivery.detail = 'duplicate_subscription_refused';
        if (endTrialSubscriptionId) delivery.detail = 'repeated_trial_ended';
        request.log.info({ provider: provider.id, event: event.id, type: event.type, duplicate }, 'payment webhook');
        if (refusedSubscriptionId) await service.stopRefusedSubscription(provider, refusedSubscriptionId, request.log);
        if (endTrialSubscriptionId) await service.endRepeatedTrial(provider, endTrialSubscriptionId, request.log);
        return { received: true, duplicate };
      },
    );
  });

  if (providers.byId.sandbox) {
    await app.register(sandboxCheckoutRoutes, { service, provider: providers.byId.sandbox });
  }
};
