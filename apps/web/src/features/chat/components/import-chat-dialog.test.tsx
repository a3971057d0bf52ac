import { fireEvent, screen, waitFor } from '@testing-library/react';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { Chat } from '@reverie/shared';
import { initI18n } from '../../../lib/i18n';
import { clearSession, setTokens } from '../../../lib/session';
import { chat, json, renderRoutes } from '../test-helpers';
import { ImportChatDialog } from './import-chat-dialog';

beforeAll(async () => {
  await initI18n('en');
});
afterEach(() => clearSession());

/** The import's requests: the form each carried; the first answers a mismatch, the next the chat. */
function fakeImport(answers: Response[]) {
  const forms: FormData[] = [];
  globalThis.fetch = async (input: RequestInfo | URL, init?: RequestInit) => {
    expect(new URL(String(input), 'http://x').pathname).toBe('/api/chat/import');
    forms.push(init?.body as FormData);
    return answers.shift()!;
  };
  return forms;
}

describe('ImportChatDialog', () => {
  it('uploads the chosen file for the character, asks before a file of another character, then opens the new chat', async () => {
    setTokens('a.b.c', 'd.e.f');
    const imported = chat({ id: 'new-chat' });
    const forms = fakeImport([
      json({ code: 'import_character_mismatch', detail: 'x', errors: { character_name: ['Seraphina'] } }, 422),
      json({ chat: imported, imported: 12, skipped: 0 }, 201),
    ]);
    const opened: Chat[] = [];
    renderRoutes(
      [
        {
          path: '/',
          element: (
            <ImportChatDialog
              open
              bot={{ id: 'b1', name: 'Mira' }}
              viewer="u1"
              onClose={() => {}}
              onImported={(c) => opened.push(c)}
            />
          ),
        },
      ],
      '/',
    );
    const file = new File(['{"character_name":"Seraphina"}\n{"mes":"hi","is_user":true}\n'], 'chat.jsonl');
    // The app's own button, in the reader's language, opens the hidden input.
    expect((await screen.findByTestId('import-chat-choose')).textContent).toBe('Choose a file');
    fireEvent.change(screen.getByLabelText('Choose a file'), { target: { files: [file] } });
    expect((await screen.findByTestId('import-chat-error')).textContent).toBe(
      'This file is a chat with Seraphina, not Mira.',
    );
    expect(screen.getByTestId('import-chat-file-name').textContent).toBe('chat.jsonl');
    expect(forms[0]!.get('bot_id')).toBe('b1');
    expect(forms[0]!.get('force')).toBeNull();
    expect((forms[0]!.get('file') as File).name).toBe('chat.jsonl');
    fireEvent.click(screen.getByTestId('import-chat-force'));
    await waitFor(() => expect(opened.map((c) => c.id)).toEqual(['new-chat']));
    expect(forms[1]!.get('force')).toBe('true');
  });

  it('says which line of a bad file could not be read', async () => {
    setTokens('a.b.c', 'd.e.f');
    fakeImport([json({ code: 'import_bad_line', detail: 'x', errors: { line: ['651'] } }, 422)]);
    renderRoutes(
      [
        {
          path: '/',
          element: (
            <ImportChatDialog
              open
              bot={{ id: 'b1', name: 'Mira' }}
              viewer="u1"
              onClose={() => {}}
              onImported={() => {}}
            />
          ),
        },
      ],
      '/',
    );
    fireEvent.change(await screen.findByLabelText('Choose a file'), {
      target: { files: [new File(['x'], 'chat.jsonl')] },
    });
    expect((await screen.findByTestId('import-chat-error')).textContent).toBe(
      "Line 651 of the file can't be read. Nothing was imported.",
    );
  });
});
