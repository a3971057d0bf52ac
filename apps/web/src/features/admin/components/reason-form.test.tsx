import { fireEvent, render, screen, waitFor } from '@testing-library/react';
import { useState } from 'react';
import { beforeAll, describe, expect, it, vi } from 'vitest';
import { initI18n } from '../../../lib/i18n';
import { NoteField } from './note-field';
import { ReasonForm } from './reason-form';

beforeAll(async () => {
  await initI18n('en');
});

describe('ReasonForm', () => {
  it('asks for a missing reason, then sends it trimmed and is done', async () => {
    const onConfirm = vi.fn(async () => undefined);
    const onDone = vi.fn();
    render(
      <ReasonForm
        testId="r"
        confirmLabel="Reject"
        requiredText="Write the reason."
        reasonHint="The author reads it."
        onConfirm={onConfirm}
        onDone={onDone}
        onCancel={() => undefined}
      />,
    );
    expect(screen.getByText('The author reads it.')).toBeTruthy();
    fireEvent.click(screen.getByTestId('r-confirm'));
    expect(await screen.findByText('Write the reason.')).toBeTruthy();
    expect(screen.getByTestId('r-reason').getAttribute('aria-invalid')).toBe('true');
    expect(onConfirm).not.toHaveBeenCalled();
    fireEvent.change(screen.getByTestId('r-reason'), { target: { value: '  Copied.  ' } });
    fireEvent.click(screen.getByTestId('r-confirm'));
    await waitFor(() => expect(onDone).toHaveBeenCalled());
    expect(onConfirm).toHaveBeenCalledWith('Copied.');
  });

  it('keeps the form with the failure shown, and sends without a field when none is asked', async () => {
    const onDone = vi.fn();
    const { unmount } = render(
      <ReasonForm
        testId="r"
        confirmLabel="Go"
        reason="optional"
        errorText={() => 'It failed.'}
        onConfirm={() => Promise.reject(new Error('x'))}
        onDone={onDone}
        onCancel={() => undefined}
      />,
    );
    expect(screen.getByLabelText('Reason (optional)')).toBeTruthy();
    fireEvent.click(screen.getByTestId('r-confirm'));
    expect((await screen.findByTestId('r-error')).textContent).toBe('It failed.');
    expect(onDone).not.toHaveBeenCalled();
    unmount();
    const onConfirm = vi.fn(async () => undefined);
    render(
      <ReasonForm
        testId="n"
        confirmLabel="Remove"
        reason="none"
        onConfirm={onConfirm}
        onDone={() => undefined}
        onCancel={() => undefined}
      />,
    );
    expect(screen.queryByTestId('n-reason')).toBeNull();
    fireEvent.click(screen.getByTestId('n-confirm'));
    await waitFor(() => expect(onConfirm).toHaveBeenCalledWith(''));
  });

  it("in place, puts its confirm button first and styles both like a list item's buttons", () => {
    const props = {
      testId: 'r',
      confirmLabel: 'Unpublish',
      danger: true,
      onConfirm: async () => undefined,
      onDone: () => undefined,
      onCancel: () => undefined,
    };
    const { unmount } = render(<ReasonForm {...props} inline />);
    const inPlace = screen.getAllByRole('button').map((button) => button.textContent);
    expect(inPlace).toEqual(['Unpublish', 'Cancel']);
    expect(screen.getByTestId('r-confirm').className).toContain('rounded-full');
    unmount();
    render(<ReasonForm {...props} />);
    expect(screen.getAllByRole('button').map((button) => button.textContent)).toEqual(['Cancel', 'Unpublish']);
    expect(screen.getByTestId('r-confirm').className).toContain('rounded-xl');
  });
});

describe('NoteField', () => {
  it('is a labelled text area that reports what is typed', () => {
    function Harness() {
      const [note, setNote] = useState('');
      return (
        <>
          <NoteField id="note" label="Note" value={note} onChange={setNote} />
          <output>{note}</output>
        </>
      );
    }
    render(<Harness />);
    fireEvent.change(screen.getByLabelText('Note'), { target: { value: 'Seen.' } });
    expect(screen.getByRole('status').textContent).toBe('Seen.');
  });
});
