import type { ClaimDesiresResponse } from '@reverie/shared';
import { request } from '../../../lib/api-client';

/** The daily claim (spec §7: POST /api/profile/claim_desires). */
export function claimDesires(): Promise<ClaimDesiresResponse> {
  return request<ClaimDesiresResponse>('/api/profile/claim_desires', { method: 'POST' });
}
