import { escapeHtml } from '../../lib/html.js';
import type { OutboxMailRow } from './mailbox.repository.js';

/** A mail of the outbox as `/dev/mailbox.json` answers it. */
export function presentOutboxMail(m: OutboxMailRow) {
  return {
    id: m.id,
    to: m.toAddress,
    kind: m.kind,
    subject: m.subject,
    text: m.text,
    html: m.html,
    headers: m.headers,
    created_at: m.createdAt.toISOString(),
  };
}

/** The `/dev/mailbox` page: a table of the mails, each linking to its HTML. */
export function renderMailboxPage(rows: OutboxMailRow[]): string {
  const items = rows
    .map(
      (m) =>
        `<tr><td>${m.createdAt.toISOString()}</td><td>${escapeHtml(m.toAddress)}</td><td>${escapeHtml(m.kind)}</td><td><a href="/dev/mailbox/${m.id}">${escapeHtml(m.subject)}</a></td></tr>`,
    )
    .join('');
  return `<!doctype html><meta charset="utf-8"><title>Mailbox</title><body style="font-family:sans-serif"><h1>Local outbox</h1><table cellpadding="6"><tr><th>sent</th><th>to</th><th>kind</th><th>subject</th></tr>${items || '<tr><td colspan="4">No mail yet.</td></tr>'}</table></body>`;
}
