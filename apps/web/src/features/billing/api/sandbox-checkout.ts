import type { SandboxDecisionResponse, SandboxPayment } from '@reverie/shared';
import { request } from '../../../lib/api-client';

/** The sandbox checkout of the signed-in payer (404 for anyone else). */
export const getSandboxPayment = (id: string) =>
  request<SandboxPayment>(`/api/payments/sandbox/checkout/${encodeURIComponent(id)}`);

/** Approve or decline it: the server delivers the signed webhook that settles it. */
export const decideSandboxPayment = (id: string, verb: 'approve' | 'decline') =>
  request<SandboxDecisionResponse>(`/api/payments/sandbox/checkout/${encodeURIComponent(id)}/${verb}`, {
    method: 'POST',
  });
