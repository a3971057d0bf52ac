import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { formatBalance, isSubscriptionPlan, PACK_CATALOGUE, type PackId, type PlanId } from '@reverie/shared';
import type { Database } from '../../db/client.js';
import { AppError } from '../../lib/errors.js';
import { translate } from '../../lib/i18n.js';
import type { PaymentProvider } from '../../providers/payments/index.js';
import {
  SANDBOX_SIGNATURE_HEADER,
  SandboxPaymentProvider,
  sandboxEventBody,
} from '../../providers/payments/sandbox.js';
import { findPayment } from './billing.repository.js';

const escapeHtml = (s: string) =>
  s.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!);

const ParamsSchema = z.object({ id: z.string().max(64) });

/**
 * The sandbox provider's checkout: a server-rendered page with Approve and Decline (plain
 * form POSTs, no scripts, so the strict CSP holds). Either button delivers a signed webhook
 * to POST /api/payments/webhook/sandbox — the same crediting path as real providers — and
 * sends the browser back to the app with ?purchase=success|failed.
 */
export const sandboxCheckoutRoutes: FastifyPluginAsyncZod<{
  db: Database;
  publicUrl: string;
  appName: string;
  provider: PaymentProvider;
}> = async (app, { db, publicUrl, appName, provider }) => {
  if (!(provider instanceof SandboxPaymentProvider)) throw new Error('sandbox routes need the sandbox provider');
  const base = publicUrl.replace(/\/$/, '');
  app.addContentTypeParser('application/x-www-form-urlencoded', { parseAs: 'string' }, (_r, body, done) =>
    done(null, body),
  );

  const loadPending = async (id: string) => {
    const payment = await findPayment(db, id);
    if (!payment || payment.provider !== 'sandbox') throw new AppError('not_found', { status: 404 });
    return payment;
  };

  app.get(
    '/api/payments/sandbox/checkout/:id',
    { schema: { hide: true, params: ParamsSchema } },
    async (request, reply) => {
      const payment = await loadPending(request.params.id);
      const t = (key: string, vars?: Record<string, string | number>) => translate(request.locale, key, vars);
      const plan = payment.plan as PlanId;
      const item = isSubscriptionPlan(plan)
        ? t(`billing.plan_${plan}`)
        : t('billing.pack_desires', { count: formatBalance(PACK_CATALOGUE[plan as PackId].desires) });
      const price = `$${(payment.amountCents / 100).toFixed(2)}`;
      const done = payment.status !== 'pending';
      const action = (verb: string) => `/api/payments/sandbox/checkout/${encodeURIComponent(payment.id)}/${verb}`;
      const html = `<!doctype html>
<html lang="${escapeHtml(request.locale)}"><head><meta charset="utf-8">
<meta name="viewport" content="width=device-width,initial-scale=1">
<meta name="robots" content="noindex">
<title>${escapeHtml(t('billing.sandbox_title'))} — ${escapeHtml(appName)}</title>
<style>
body{margin:0;min-height:100vh;display:flex;align-items:center;justify-content:center;background:#0f0b14;color:#f4eefa;font:16px/1.5 system-ui,sans-serif}
main{width:min(420px,92vw);background:#1c1524;border:1px solid #3a2d48;border-radius:20px;padding:28px;box-shadow:0 20px 60px #0008}
.brand{font-weight:700;font-size:20px;color:#e0559b;margin:0 0 4px}.note{color:#b7a9c6;font-size:14px;margin:0 0 20px}
.item{display:flex;justify-content:space-between;gap:12px;padding:14px 0;border-top:1px solid #3a2d48;border-bottom:1px solid #3a2d48;margin-bottom:22px}
.price{font-weight:700}form{margin:0 0 10px}button{width:100%;border:0;border-radius:12px;padding:13px;font:inherit;font-weight:600;cursor:pointer}
.approve{background:#e0559b;color:#fff}.decline{background:transparent;color:#f4eefa;border:1px solid #3a2d48}
</style></head>
<body><main>
<p class="brand">${escapeHtml(appName)}</p>
<h1 style="font-size:22px;margin:0 0 6px">${escapeHtml(t('billing.sandbox_title'))}</h1>
<p class="note">${escapeHtml(t('billing.sandbox_note'))}</p>
<div class="item"><span>${escapeHtml(item)}</span><span class="price">${escapeHtml(price)}</span></div>
${
  done
    ? `<p class="note">${escapeHtml(t('billing.sandbox_done'))}</p><p><a href="${escapeHtml(base)}/" style="color:#e0559b">${escapeHtml(t('billing.sandbox_back'))}</a></p>`
    : `<form method="post" action="${escapeHtml(action('approve'))}"><button class="approve" type="submit">${escapeHtml(t('billing.sandbox_approve'))}</button></form>
<form method="post" action="${escapeHtml(action('decline'))}"><button class="decline" type="submit">${escapeHtml(t('billing.sandbox_decline'))}</button></form>`
}
</main></body></html>`;
      // The buttons' redirect goes to the web app, which may live on another origin.
      const csp = `default-src 'none'; style-src 'unsafe-inline'; form-action 'self' ${new URL(base).origin}; frame-ancestors 'none'; base-uri 'none'`;
      return reply
        .type('text/html; charset=utf-8')
        .header('cache-control', 'no-store')
        .header('content-security-policy', csp)
        .send(html);
    },
  );

  for (const verb of ['approve', 'decline'] as const) {
    app.post(
      `/api/payments/sandbox/checkout/:id/${verb}`,
      { schema: { hide: true, params: ParamsSchema }, config: { rateLimit: { max: 30, timeWindow: 60_000 } } },
      async (request, reply) => {
        const payment = await loadPending(request.params.id);
        let ok = verb === 'approve';
        if (payment.status === 'pending') {
          const body = sandboxEventBody(ok ? 'payment.succeeded' : 'payment.failed', payment.id);
          // Delivered through the public webhook route, exactly as a provider would.
          const delivered = await app.inject({
            method: 'POST',
            url: '/api/payments/webhook/sandbox',
            headers: { 'content-type': 'application/json', [SANDBOX_SIGNATURE_HEADER]: provider.signWebhook(body) },
            payload: body,
          });
          if (delivered.statusCode !== 200) {
            request.log.error({ status: delivered.statusCode, body: delivered.body }, 'sandbox webhook failed');
            ok = false;
          }
        } else {
          ok = payment.status === 'paid';
        }
        return reply.redirect(`${base}/?purchase=${ok ? 'success' : 'failed'}`, 303);
      },
    );
  }
};
