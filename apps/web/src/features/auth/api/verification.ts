import { request } from '../../../lib/api-client';

/** GET /api/activate/{code}/: confirms the e-mail. */
export const activateEmail = (code: string) =>
  request<{ detail: string }>(`/api/activate/${encodeURIComponent(code)}/`, { retry: 0 });

/** GET /api/resend_activation/: sends the verification mail (again when forced). */
export const resendActivation = (force: boolean) =>
  request<{ detail: string; sent: boolean }>('/api/resend_activation/', {
    query: force ? { force: '1' } : {},
    retry: 0,
  });
