import type { AdminContextMessage, AdminMessageReport, AdminSupportReport } from '@reverie/shared';
import type { MediaUrls } from '../../lib/media-urls.js';
import type { ContextRow, MessageReportRow, SupportReportRow } from './reports.repository.js';

export function presentContextMessage(row: ContextRow, reportedId: string, urls: MediaUrls): AdminContextMessage {
  return {
    id: row.id,
    role: row.role,
    text: row.text,
    created_at: row.createdAt.toISOString(),
    picture_url: urls.url(row.mediaKey, { signed: true }),
    reported: row.id === reportedId,
  };
}

export function presentMessageReport(row: MessageReportRow, urls: MediaUrls): AdminMessageReport {
  return {
    id: row.id,
    reason: row.reason,
    comment: row.comment,
    status: row.status,
    created_at: row.createdAt.toISOString(),
    reporter: { id: row.reporterId, email: row.reporterEmail, name: row.reporterName },
    character: { id: row.botId, name: row.botName, slug: row.botSlug },
    chat_id: row.chatId,
    message: presentContextMessage(
      {
        id: row.messageId,
        role: row.messageRole,
        text: row.messageText,
        createdAt: row.messageCreatedAt,
        mediaKey: row.messageMediaKey,
      },
      row.messageId,
      urls,
    ),
    resolution: row.resolution,
    resolved_at: row.resolvedAt?.toISOString() ?? null,
  };
}

export function presentSupportReport(row: SupportReportRow): AdminSupportReport {
  return {
    id: row.id,
    // A signed-in author's account address (answers go there), else the guest's typed one.
    email: row.userId ? row.userEmail : row.email,
    subject: row.subject,
    text: row.text,
    status: row.status,
    user: row.userId ? { id: row.userId, email: row.userEmail ?? '', name: row.userName ?? '' } : null,
    answer: row.answer,
    answered_at: row.answeredAt?.toISOString() ?? null,
    closed_at: row.closedAt?.toISOString() ?? null,
    created_at: row.createdAt.toISOString(),
  };
}
