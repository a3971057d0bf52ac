import type { Config } from '../../config.js';
import { resolveNamedSecret } from '../../lib/secrets.js';
import { NowPaymentsProvider } from './nowpayments.js';
import { SandboxPaymentProvider } from './sandbox.js';
import { StripePaymentProvider } from './stripe.js';
import type { PaymentProvider, PaymentProviderId } from './types.js';

export type { PaymentProvider, PaymentProviderId, PaymentEvent, CheckoutInput } from './types.js';

export interface PaymentProviders {
  /** Card payments (`create_stripe`); null when buying by card is off. */
  card: PaymentProvider | null;
  /** Crypto payments (`create_crypto_payment`); null when crypto is off. */
  crypto: PaymentProvider | null;
  /** Providers whose webhooks are accepted, by id. */
  byId: Partial<Record<PaymentProviderId, PaymentProvider>>;
  /** What the server must say at every start (a sandbox on a public address). */
  warnings: string[];
}

/** True for addresses only this machine reaches: localhost, 127.0.0.0/8, ::1. */
export function isLoopbackUrl(url: string): boolean {
  let host: string;
  try {
    host = new URL(url).hostname.toLowerCase();
  } catch {
    return false;
  }
  if (host.startsWith('[') && host.endsWith(']')) host = host.slice(1, -1);
  if (host === 'localhost' || host.endsWith('.localhost')) return true;
  if (host === '::1' || host === '0:0:0:0:0:0:0:1') return true;
  return /^127\.\d{1,3}\.\d{1,3}\.\d{1,3}$/.test(host);
}

/**
 * A local trial: a loopback PUBLIC_URL (a fresh `npm start`, `npm run dev`, the tests). Only
 * the address decides, never NODE_ENV: a public site started without NODE_ENV (the server's
 * own default is development) must not turn the sandbox on by itself.
 */
export function isLocalTrial(config: Pick<Config, 'PUBLIC_URL'>): boolean {
  return isLoopbackUrl(config.PUBLIC_URL);
}

/**
 * Chooses the providers from the settings — the one place that decides (docs/billing.md):
 *
 * | PAYMENT_PROVIDER | Stripe keys | local trial¹ | card    | crypto without NOWPayments |
 * | ---------------- | ----------- | ------------ | ------- | -------------------------- |
 * | stripe           | required    | any          | stripe  | off                        |
 * | sandbox          | any         | yes          | sandbox | sandbox                    |
 * | sandbox          | any         | no           | sandbox + warning at start | sandbox |
 * | unset            | set         | any          | stripe  | off                        |
 * | unset            | unset       | yes          | sandbox | sandbox                    |
 * | unset            | unset       | no           | off     | off                        |
 *
 * ¹ a loopback PUBLIC_URL (localhost, *.localhost, 127.0.0.0/8, ::1), whatever NODE_ENV says.
 * A sandbox (card or crypto) serving a non-loopback PUBLIC_URL always logs a warning at start.
 * NOWPAYMENTS_API_KEY (with its IPN secret) always makes crypto NOWPayments. Crypto never
 * falls back to the sandbox beside a real card provider, and off means checkouts answer
 * 503 `payments_not_configured`. The sandbox's routes exist only when one side uses it.
 */
export function createPaymentProviders(config: Config): PaymentProviders {
  const base = config.PUBLIC_URL.replace(/\/$/, '');
  const warnings: string[] = [];
  let sandbox: SandboxPaymentProvider | null = null;
  const useSandbox = () =>
    (sandbox ??= new SandboxPaymentProvider({
      secret: resolveNamedSecret(config.SANDBOX_WEBHOOK_SECRET, config.dataDir, 'sandbox-webhook.key'),
      publicUrl: base,
    }));
  const localTrial = isLocalTrial(config);

  let card: PaymentProvider | null = null;
  // A Stripe key without PAYMENT_PROVIDER means Stripe (and a missing webhook secret is an error).
  const cardChoice = config.PAYMENT_PROVIDER ?? (config.STRIPE_SECRET_KEY ? 'stripe' : localTrial ? 'sandbox' : null);
  if (cardChoice === 'stripe') {
    if (!config.STRIPE_SECRET_KEY || !config.STRIPE_WEBHOOK_SECRET)
      throw new Error('Stripe payments need both STRIPE_SECRET_KEY and STRIPE_WEBHOOK_SECRET');
    card = new StripePaymentProvider({
      secretKey: config.STRIPE_SECRET_KEY,
      webhookSecret: config.STRIPE_WEBHOOK_SECRET,
      host: config.STRIPE_API_HOST,
      port: config.STRIPE_API_PORT,
      protocol: config.STRIPE_API_PROTOCOL,
    });
  } else if (cardChoice === 'sandbox') {
    card = useSandbox();
  }

  let crypto: PaymentProvider | null = null;
  if (config.NOWPAYMENTS_API_KEY) {
    if (!config.NOWPAYMENTS_IPN_SECRET) throw new Error('NOWPAYMENTS_API_KEY needs NOWPAYMENTS_IPN_SECRET');
    crypto = new NowPaymentsProvider({
      apiKey: config.NOWPAYMENTS_API_KEY,
      ipnSecret: config.NOWPAYMENTS_IPN_SECRET,
      apiUrl: config.NOWPAYMENTS_API_URL,
      ipnCallbackUrl: `${base}/api/payments/webhook/nowpayments`,
    });
  } else if (card?.id === 'sandbox') {
    // Only beside the sandbox card provider: never beside real money.
    crypto = useSandbox();
  }

  const byId: PaymentProviders['byId'] = {};
  for (const provider of [card, crypto]) if (provider) byId[provider.id] = provider;
  // Whatever chose it: a sandbox reachable beyond this machine is said at every start.
  if (byId.sandbox && !isLoopbackUrl(config.PUBLIC_URL))
    warnings.push(
      `PAYMENT_PROVIDER=sandbox on a public address (${new URL(base).host}): anyone signed in can "buy" desires and Premium without paying. Use it only for a demo; configure Stripe for real payments.`,
    );
  if (!card && !crypto)
    warnings.push(
      `No payment provider is configured and PUBLIC_URL (${new URL(base).host}) is not a local address: buying is off (503 payments_not_configured). Set STRIPE_SECRET_KEY and STRIPE_WEBHOOK_SECRET, NOWPAYMENTS_API_KEY, or PAYMENT_PROVIDER=sandbox for a demo.`,
    );
  return { card, crypto, byId, warnings };
}
