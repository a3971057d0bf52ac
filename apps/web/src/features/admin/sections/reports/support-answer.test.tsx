import { fireEvent, render, screen } from '@testing-library/react';
import { createMemoryRouter, RouterProvider } from 'react-router';
import { beforeAll, describe, expect, it } from 'vitest';
import type { AdminSupportReport } from '@reverie/shared';
import { AppProviders } from '../../../../lib/providers';
import { initI18n } from '../../../../lib/i18n';
import { SupportReportDetailView } from './support-reports';

const report: AdminSupportReport = {
  id: 's1',
  email: 'user@example.com',
  subject: 'Billing question',
  text: 'I was charged twice.',
  status: 'open',
  user: null,
  answer: null,
  answered_at: null,
  closed_at: null,
  created_at: '2026-11-24T10:00:00.000Z',
};

beforeAll(async () => {
  await initI18n('en');
});

/** The page against a server that refuses the answer with `code`; the report as it is after. */
function renderRefused(code: string, status: number, after: AdminSupportReport) {
  let answered = false;
  globalThis.fetch = async (input: RequestInfo | URL, init?: RequestInit) => {
    const request = input instanceof Request ? input : null;
    const method = (request ? request.method : init?.method) ?? 'GET';
    const json = (body: unknown, statusCode = 200) =>
      new Response(JSON.stringify(body), { status: statusCode, headers: { 'content-type': 'application/json' } });
    if (method === 'POST') {
      answered = true;
      return json({ code, detail: 'refused', status }, status);
    }
    return json(answered ? after : report);
  };
  const router = createMemoryRouter([{ path: '*', element: <SupportReportDetailView id="s1" /> }], {
    initialEntries: ['/admin/reports/support/s1'],
  });
  render(
    <AppProviders>
      <RouterProvider router={router} />
    </AppProviders>,
  );
}

async function sendAnswer() {
  fireEvent.change(await screen.findByLabelText(/answer/i), { target: { value: 'Refunded, sorry.' } });
  fireEvent.click(screen.getByTestId('support-answer-send'));
}

describe('answering a support report', () => {
  it('says the answer was sent already and shows the report as it is now', async () => {
    renderRefused('already_answered', 409, {
      ...report,
      answer: 'Refunded, sorry.',
      answered_at: '2026-11-24T10:05:00.000Z',
    });
    await sendAnswer();
    expect((await screen.findByRole('alert')).textContent).toContain('This answer has already been sent');
    expect(await screen.findByText('Refunded, sorry.', { selector: 'p' })).toBeTruthy();
  });

  it('says a closed report cannot be answered', async () => {
    renderRefused('report_closed', 409, { ...report, status: 'closed', closed_at: '2026-11-24T10:05:00.000Z' });
    await sendAnswer();
    expect((await screen.findByRole('alert')).textContent).toContain('This report is closed');
  });

  it('says nothing was sent when the e-mail could not be queued', async () => {
    renderRefused('mail_not_queued', 503, report);
    await sendAnswer();
    expect((await screen.findByRole('alert')).textContent).toContain('nothing was sent or saved');
  });
});
