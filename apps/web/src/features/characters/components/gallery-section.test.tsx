import { fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { beforeAll, describe, expect, it } from 'vitest';
import type { BotGallery, BotGalleryPicture } from '@reverie/shared';
import { AppProviders } from '../../../lib/providers';
import { initI18n } from '../../../lib/i18n';
import { GallerySection } from './gallery-section';

beforeAll(async () => {
  await initI18n('en');
});

const picture = (id: string, visibility: 'public' | 'private' = 'public'): BotGalleryPicture => ({
  id,
  url: `/api/media/bots/b1/picture-${id}.webp?sig=x`,
  visibility,
  explicit: false,
});
const gallery = (results: BotGalleryPicture[]): BotGallery => ({ results, max: 24, public_max: 12 });
const json = (body: unknown, status = 200) =>
  new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } });

/** The server as the section sees it: each call recorded, answered by `answer`. */
function fakeServer(answer: (method: string, path: string, body: unknown) => Response) {
  const calls: { method: string; path: string; body: unknown }[] = [];
  globalThis.fetch = async (input: RequestInfo | URL, init?: RequestInit) => {
    const request = input instanceof Request ? input : null;
    const method = request?.method ?? init?.method ?? 'GET';
    const url = new URL(request?.url ?? String(input), 'http://localhost');
    const raw = request ? await request.clone().text() : init?.body;
    const body = typeof raw === 'string' && raw.startsWith('{') ? JSON.parse(raw) : raw ? 'form' : null;
    calls.push({ method, path: url.pathname, body });
    return answer(method, url.pathname, body);
  };
  return calls;
}

describe("the edit dialog's gallery", () => {
  it('lists the pictures, adds one, makes one private and deletes one after a confirmation', async () => {
    let current = gallery([picture('p1')]);
    const calls = fakeServer((method, path, body) => {
      if (method === 'POST') current = gallery([...current.results, picture('p2')]);
      if (method === 'PATCH')
        current = gallery(
          current.results.map((p) => (path.endsWith(p.id) ? { ...p, ...(body as { visibility: 'private' }) } : p)),
        );
      if (method === 'DELETE') current = gallery(current.results.filter((p) => !path.endsWith(p.id)));
      return json(current, method === 'POST' ? 201 : 200);
    });
    render(
      <AppProviders>
        <GallerySection slug="mara-1" />
      </AppProviders>,
    );
    const section = await screen.findByTestId('edit-character-gallery');
    await waitFor(() => expect(within(section).getAllByTestId('gallery-picture')).toHaveLength(1));
    expect(section.textContent).toContain('1 of 24');
    expect(section.textContent).toContain('On the page');

    const input = within(section).getByLabelText<HTMLInputElement>('Add a picture');
    fireEvent.change(input, { target: { files: [new File([new Uint8Array(8)], 'p.png', { type: 'image/png' })] } });
    await waitFor(() => expect(within(section).getAllByTestId('gallery-picture')).toHaveLength(2));
    expect(calls.find((c) => c.method === 'POST')?.path).toBe('/api/bot/mara-1/gallery');

    const [first] = within(section).getAllByTestId('gallery-picture');
    fireEvent.click(within(first!).getByRole('button', { name: 'Chat only' }));
    await waitFor(() => expect(within(first!).getByText('Chat only', { selector: 'span' })).toBeTruthy());
    expect(calls.find((c) => c.method === 'PATCH')).toMatchObject({
      path: '/api/bot/mara-1/gallery/p1',
      body: { visibility: 'private' },
    });
    expect(within(first!).getByRole('button', { name: 'Show on page' })).toBeTruthy();

    fireEvent.click(within(first!).getByRole('button', { name: 'Delete' }));
    expect(calls.some((c) => c.method === 'DELETE')).toBe(false);
    expect(within(first!).getByText('Delete this picture?')).toBeTruthy();
    fireEvent.click(within(first!).getByTestId('gallery-delete-confirm'));
    await waitFor(() => expect(within(section).getAllByTestId('gallery-picture')).toHaveLength(1));
    expect(calls.find((c) => c.method === 'DELETE')?.path).toBe('/api/bot/mara-1/gallery/p1');
  });

  it("shows the server's refusals: a refused picture, a full gallery", async () => {
    let refusal = { detail: 'Inappropriate content', code: 'inappropriate_content' };
    fakeServer((method) =>
      method === 'GET' ? json(gallery([])) : json(refusal, refusal.code === 'gallery_full' ? 409 : 422),
    );
    render(
      <AppProviders>
        <GallerySection slug="mara-1" />
      </AppProviders>,
    );
    const section = await screen.findByTestId('edit-character-gallery');
    await waitFor(() => expect(section.textContent).toContain('0 of 24'));
    const input = within(section).getByLabelText<HTMLInputElement>('Add a picture');
    const file = () => new File([new Uint8Array(8)], 'p.png', { type: 'image/png' });
    fireEvent.change(input, { target: { files: [file()] } });
    expect(await within(section).findByText(/inappropriate/i)).toBeTruthy();
    refusal = { detail: 'Conflict', code: 'gallery_full' };
    fireEvent.change(input, { target: { files: [file()] } });
    expect(await within(section).findByText(/The gallery is full/)).toBeTruthy();
    fireEvent.change(input, { target: { files: [new File(['x'], 'notes.txt', { type: 'text/plain' })] } });
    expect(await within(section).findByText('Please choose an image file.')).toBeTruthy();
  });
});
