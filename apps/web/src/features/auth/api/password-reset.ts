import { request } from '../../../lib/api-client';

/** POST /api/password_reset/: always 200, whether or not the account exists. */
export const requestPasswordReset = (email: string) =>
  request<{ detail: string }>('/api/password_reset/', { method: 'POST', body: { email } });

/** POST /api/password_reset/validate_token/. */
export const validateResetToken = (token: string) =>
  request<{ valid: true }>('/api/password_reset/validate_token/', { method: 'POST', body: { token }, retry: 0 });

/** POST /password/{token}/ (not under /api). */
export const setNewPassword = (token: string, password: string, password_confirm: string) =>
  request<{ detail: string }>(`/password/${encodeURIComponent(token)}/`, {
    method: 'POST',
    body: { password, password_confirm },
  });
