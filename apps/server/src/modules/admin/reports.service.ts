import {
  toLocale,
  type AdminMessageReportDetail,
  type AdminMessageReportList,
  type AdminSupportReport,
  type AdminSupportReportList,
} from '@reverie/shared';
import type { Database } from '../../db/client.js';
import { AppError } from '../../lib/errors.js';
import { renderNoticeEmail } from '../../lib/notice-email.js';
import { ownedChatMediaKeys } from '../accounts/index.js';
import type { AdminDeps } from './admin-deps.js';
import { recordAudit } from './audit.repository.js';
import * as repo from './reports.repository.js';
import * as takedownRepo from './takedown.repository.js';
import { presentContextMessage, presentMessageReport, presentSupportReport } from './reports.presenter.js';
import { withVariants } from './takedown.service.js';

/** Messages shown before and after a reported one. */
/**
 * Where a support answer goes (issue 27): a signed-in author's account address, and only once
 * verified — the address typed in the report could be anyone's — else a guest's typed address;
 * null when there is none (an unverified account, a deleted one).
 */
export function supportAnswerAddress(
  row: Pick<repo.SupportReportRow, 'email' | 'userId' | 'userEmail' | 'userEmailConfirmed'>,
): string | null {
  if (row.userId) return row.userEmailConfirmed ? row.userEmail : null;
  return row.email;
}

const CONTEXT_AROUND = 3;
const LIST_LIMIT = 200;

/**
 * The console's reports (docs/admin.md "Reports"): message reports with their context
 * (resolve with a note, or remove the message and its files), support reports (answered by
 * e-mail, closed). Every write is recorded in the audit log in its transaction.
 */
export class AdminReportsService {
  constructor(private readonly deps: AdminDeps) {}

  countOpen(): Promise<number> {
    return repo.countOpenReports(this.deps.db);
  }

  async listMessageReports(status: 'open' | 'resolved'): Promise<AdminMessageReportList> {
    const rows = await repo.listMessageReports(this.deps.db, status, LIST_LIMIT);
    return { items: rows.map((row) => presentMessageReport(row, this.deps.urls)) };
  }

  async messageReport(id: number): Promise<AdminMessageReportDetail> {
    const row = await repo.findMessageReport(this.deps.db, id);
    if (!row) throw new AppError('not_found', { status: 404 });
    const context = await repo.messageContext(
      this.deps.db,
      { chatId: row.chatId, id: row.messageId, createdAt: row.messageCreatedAt },
      CONTEXT_AROUND,
    );
    return {
      ...presentMessageReport(row, this.deps.urls),
      context: context.map((m) => presentContextMessage(m, row.messageId, this.deps.urls)),
    };
  }

  async resolveMessageReport(adminId: string, id: number, note: string): Promise<AdminMessageReportDetail> {
    const row = await repo.findMessageReport(this.deps.db, id);
    if (!row) throw new AppError('not_found', { status: 404 });
    await this.deps.db.transaction(async (txn) => {
      const tx = txn as unknown as Database;
      await repo.resolveMessageReport(tx, id, { resolution: note || null, resolvedBy: adminId });
      await recordAudit(tx, adminId, {
        action: 'report.resolve',
        targetType: 'message_report',
        targetId: String(id),
        before: { status: row.status },
        after: { status: 'resolved' },
        reason: note || null,
      });
    });
    return this.messageReport(id);
  }

  /**
   * Deletes the reported message (its reports go with it) and then its files; the audit
   * record keeps what it said.
   */
  async removeReportedMessage(adminId: string, id: number, note: string): Promise<void> {
    const row = await repo.findMessageReport(this.deps.db, id);
    if (!row) throw new AppError('not_found', { status: 404 });
    const files = await this.deps.db.transaction(async (txn) => {
      const tx = txn as unknown as Database;
      // The takedown's reads and deletion (one place for a message's files).
      const [files] = await takedownRepo.findMessagesFiles(tx, [row.messageId], { lock: true });
      await takedownRepo.deleteMessages(tx, [row.messageId]);
      await recordAudit(tx, adminId, {
        action: 'message.remove',
        targetType: 'message',
        targetId: row.messageId,
        before: {
          report: id,
          chat: row.chatId,
          character: row.botId,
          role: row.messageRole,
          text: row.messageText.slice(0, 2000),
        },
        after: null,
        reason: note || row.reason,
      });
      return files ?? null;
    });
    const keys = files ? ownedChatMediaKeys(files.userId, [files]) : [];
    for (const key of keys)
      for (const file of withVariants(key))
        await this.deps.storage.delete(file).catch((error: unknown) => {
          this.deps.log.error({ err: error, message: row.messageId }, 'a removed message file could not be deleted');
        });
  }

  async listSupportReports(status: 'open' | 'closed'): Promise<AdminSupportReportList> {
    const rows = await repo.listSupportReports(this.deps.db, status, LIST_LIMIT);
    return { items: rows.map(presentSupportReport) };
  }

  async supportReport(id: string): Promise<AdminSupportReport> {
    const row = await repo.findSupportReport(this.deps.db, id);
    if (!row) throw new AppError('not_found', { status: 404 });
    return presentSupportReport(row);
  }

  /**
   * Keeps the answer on the report (closing it unless told not to) with its audit record in one
   * transaction, then hands the e-mail — to `supportAnswerAddress`, in the author's language — to the mail provider, which keeps it durably (the mail queue's job,
   * retried; or the outbox row) before this answers. A retry of an answer already given, or an
   * answer to a closed report, is a 409 (`already_answered`, `report_closed`) that writes
   * nothing. When the e-mail cannot be queued the answer is taken back (recorded as
   * `support.answer_undone`) and 503 `mail_not_queued` says to try again.
   */
  async answerSupportReport(adminId: string, id: string, answer: string, close: boolean): Promise<AdminSupportReport> {
    const row = await repo.findSupportReport(this.deps.db, id);
    if (!row) throw new AppError('not_found', { status: 404 });
    const to = supportAnswerAddress(row);
    if (!to)
      throw new AppError('no_email', { status: 409, detail: 'This report has no verified e-mail address to answer' });
    const now = new Date();
    const before = await this.deps.db.transaction(async (txn) => {
      const tx = txn as unknown as Database;
      const current = await repo.lockSupportReport(tx, id);
      if (!current) throw new AppError('not_found', { status: 404 });
      if (current.answer !== null && current.answer === answer)
        throw new AppError('already_answered', { status: 409, detail: 'This answer has been sent already' });
      if (current.status === 'closed')
        throw new AppError('report_closed', { status: 409, detail: 'This report is closed' });
      await repo.updateSupportReport(tx, id, {
        answer,
        answeredAt: now,
        handledBy: adminId,
        ...(close ? { status: 'closed', closedAt: now } : {}),
      });
      await recordAudit(tx, adminId, {
        action: 'support.answer',
        targetType: 'support_report',
        targetId: id,
        before: { status: current.status, answer: current.answer },
        after: { status: close ? 'closed' : current.status, answer },
      });
      return current;
    });
    const email = renderNoticeEmail({
      kind: 'support_answer',
      locale: toLocale(row.userLocale) ?? 'en',
      edition: this.deps.edition,
      vars: { subject: row.subject || row.text.slice(0, 60) },
      quote: answer,
    });
    try {
      await this.deps.mail.send({ to, ...email, headers: {}, kind: 'support_answer', userId: row.userId });
    } catch (error) {
      this.deps.log.error({ err: error, report: id }, 'a support answer could not be queued; taking it back');
      await this.undoAnswer(adminId, id, before, answer).catch((undoError: unknown) => {
        this.deps.log.error({ err: undoError, report: id }, 'a support answer could not be taken back');
      });
      throw new AppError('mail_not_queued', {
        status: 503,
        headers: { 'retry-after': '10' },
        detail: 'The e-mail could not be queued; nothing was sent. Try again.',
      });
    }
    return this.supportReport(id);
  }

  /** Puts the report back as it was before an answer whose e-mail could not be queued. */
  private async undoAnswer(
    adminId: string,
    id: string,
    before: NonNullable<Awaited<ReturnType<typeof repo.lockSupportReport>>>,
    answer: string,
  ): Promise<void> {
    await this.deps.db.transaction(async (txn) => {
      const tx = txn as unknown as Database;
      await repo.updateSupportReport(tx, id, {
        answer: before.answer,
        answeredAt: before.answeredAt,
        status: before.status,
        closedAt: before.closedAt,
      });
      await recordAudit(tx, adminId, {
        action: 'support.answer_undone',
        targetType: 'support_report',
        targetId: id,
        before: { answer },
        after: { status: before.status, answer: before.answer },
        reason: 'mail_not_queued',
      });
    });
  }

  async closeSupportReport(adminId: string, id: string): Promise<AdminSupportReport> {
    const row = await repo.findSupportReport(this.deps.db, id);
    if (!row) throw new AppError('not_found', { status: 404 });
    await this.deps.db.transaction(async (txn) => {
      const tx = txn as unknown as Database;
      await repo.updateSupportReport(tx, id, { status: 'closed', closedAt: new Date(), handledBy: adminId });
      await recordAudit(tx, adminId, {
        action: 'support.close',
        targetType: 'support_report',
        targetId: id,
        before: { status: row.status },
        after: { status: 'closed' },
      });
    });
    return this.supportReport(id);
  }
}
