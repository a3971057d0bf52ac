import { fireEvent, screen, waitFor } from '@testing-library/react';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { initI18n } from '../../../lib/i18n';
import { clearSession, setTokens } from '../../../lib/session';
import { fakeApi, json, renderRoutes } from '../test-helpers';
import { AuthorNoteDialog } from './author-note-dialog';

beforeAll(async () => {
  await initI18n('en');
});
afterEach(() => clearSession());

describe('AuthorNoteDialog', () => {
  it('loads the note, refuses a depth out of range, saves text and depth', async () => {
    setTokens('a.b.c', 'd.e.f');
    let closed = 0;
    const calls = fakeApi((call) => {
      if (call.path !== '/api/chat/c1/author-note') return undefined;
      if (call.method === 'PUT') return json(call.body);
      return json({ text: 'It is raining.', depth: 4 });
    });
    renderRoutes([{ path: '/', element: <AuthorNoteDialog chatId="c1" open onClose={() => (closed += 1)} /> }], '/');
    const field = (await screen.findByTestId('author-note-field')) as HTMLTextAreaElement;
    expect(field.value).toBe('It is raining.');
    const save = screen.getByTestId('author-note-save') as HTMLButtonElement;
    expect(save.disabled).toBe(true); // nothing changed yet

    fireEvent.change(field, { target: { value: 'Slow, tender scene.' } });
    fireEvent.change(screen.getByTestId('author-note-depth'), { target: { value: '101' } });
    expect(save.disabled).toBe(true);
    expect(screen.getByTestId('author-note-depth').getAttribute('aria-invalid')).toBe('true');
    fireEvent.change(screen.getByTestId('author-note-depth'), { target: { value: '0' } });
    expect(save.disabled).toBe(false);
    fireEvent.click(save);
    await waitFor(() => expect(closed).toBe(1));
    expect(calls.find((c) => c.method === 'PUT')!.body).toEqual({ text: 'Slow, tender scene.', depth: 0 });
  });
});
