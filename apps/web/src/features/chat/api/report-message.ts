import { useMutation } from '@tanstack/react-query';
import type { REPORT_REASONS } from '@reverie/shared';
import { request } from '../../../lib/api-client';

export type ReportReason = (typeof REPORT_REASONS)[number];

/** POST /api/chat/{id}/messages/{message_id}/report. */
export const reportMessage = (chatId: string, messageId: string, reason: ReportReason, comment?: string) =>
  request<unknown>(`/api/chat/${encodeURIComponent(chatId)}/messages/${encodeURIComponent(messageId)}/report`, {
    method: 'POST',
    body: comment ? { reason, comment } : { reason },
  });

export function useReportMessage(chatId: string) {
  return useMutation({
    mutationFn: ({ messageId, reason, comment }: { messageId: string; reason: ReportReason; comment?: string }) =>
      reportMessage(chatId, messageId, reason, comment),
  });
}
