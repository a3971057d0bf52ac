import type { Config } from '../../config.js';
import { resolveNamedSecret } from '../../lib/secrets.js';
import { NowPaymentsProvider } from './nowpayments.js';
import { SandboxPaymentProvider } from './sandbox.js';
import { StripePaymentProvider } from './stripe.js';
import type { PaymentProvider, PaymentProviderId } from './types.js';

export type { PaymentProvider, PaymentProviderId, PaymentEvent, CheckoutInput } from './types.js';

export interface PaymentProviders {
  /** Card payments (`create_stripe`). */
  card: PaymentProvider;
  /** Crypto payments (`create_crypto_payment`). */
  crypto: PaymentProvider;
  /** Providers whose webhooks are accepted, by id. */
  byId: Partial<Record<PaymentProviderId, PaymentProvider>>;
}

/**
 * Chooses the providers from the settings: PAYMENT_PROVIDER for cards (sandbox by default),
 * NOWPayments for crypto when its key is set, else the sandbox. The sandbox (and its
 * checkout page) exists only when one of them uses it.
 */
export function createPaymentProviders(config: Config): PaymentProviders {
  const base = config.PUBLIC_URL.replace(/\/$/, '');
  let sandbox: SandboxPaymentProvider | null = null;
  const useSandbox = () =>
    (sandbox ??= new SandboxPaymentProvider({
      secret: resolveNamedSecret(config.SANDBOX_WEBHOOK_SECRET, config.dataDir, 'sandbox-webhook.key'),
      publicUrl: base,
    }));

  let card: PaymentProvider;
  if (config.PAYMENT_PROVIDER === 'stripe') {
    if (!config.STRIPE_SECRET_KEY || !config.STRIPE_WEBHOOK_SECRET)
      throw new Error('PAYMENT_PROVIDER=stripe needs STRIPE_SECRET_KEY and STRIPE_WEBHOOK_SECRET');
    card = new StripePaymentProvider({
      secretKey: config.STRIPE_SECRET_KEY,
      webhookSecret: config.STRIPE_WEBHOOK_SECRET,
      host: config.STRIPE_API_HOST,
      port: config.STRIPE_API_PORT,
      protocol: config.STRIPE_API_PROTOCOL,
    });
  } else {
    card = useSandbox();
  }

  let crypto: PaymentProvider;
  if (config.NOWPAYMENTS_API_KEY) {
    if (!config.NOWPAYMENTS_IPN_SECRET) throw new Error('NOWPAYMENTS_API_KEY needs NOWPAYMENTS_IPN_SECRET');
    crypto = new NowPaymentsProvider({
      apiKey: config.NOWPAYMENTS_API_KEY,
      ipnSecret: config.NOWPAYMENTS_IPN_SECRET,
      apiUrl: config.NOWPAYMENTS_API_URL,
      ipnCallbackUrl: `${base}/api/payments/webhook/nowpayments`,
    });
  } else {
    crypto = useSandbox();
  }

  const byId: PaymentProviders['byId'] = {};
  for (const provider of [card, crypto]) byId[provider.id] = provider;
  return { card, crypto, byId };
}
