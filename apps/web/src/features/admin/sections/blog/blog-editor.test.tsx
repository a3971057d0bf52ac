import { fireEvent, render, screen, waitFor } from '@testing-library/react';
import { createMemoryRouter, RouterProvider } from 'react-router';
import { beforeAll, describe, expect, it } from 'vitest';
import { AppProviders } from '../../../../lib/providers';
import { initI18n } from '../../../../lib/i18n';
import { BlogEditor, slugOf } from './blog-editor';

function renderEditor() {
  const router = createMemoryRouter([{ path: '*', element: <BlogEditor post={null} /> }], {
    initialEntries: ['/admin/blog/new'],
  });
  render(
    <AppProviders>
      <RouterProvider router={router} />
    </AppProviders>,
  );
  return router;
}

beforeAll(async () => {
  await initI18n('en');
});

describe('the blog editor', () => {
  it('previews the Markdown as the post page renders it, never raw HTML', async () => {
    renderEditor();
    fireEvent.change(screen.getByLabelText('Title'), { target: { value: 'Été news!' } });
    expect((screen.getByLabelText('Address') as HTMLInputElement).value).toBe('ete-news');
    fireEvent.change(screen.getByTestId('blog-body'), {
      target: {
        value:
          '## Hello\n\nMeet **Iris** and [her site](https://example.test).\n\n<script>alert(1)</script><img src=x onerror=alert(1)>',
      },
    });
    const preview = screen.getByTestId('blog-preview');
    await waitFor(() => expect(preview.querySelector('h2')?.textContent).toBe('Hello'));
    expect(preview.querySelector('h1')?.textContent).toBe('Été news!');
    expect(preview.querySelector('strong')?.textContent).toBe('Iris');
    expect(preview.querySelector('a')?.getAttribute('href')).toBe('https://example.test');
    expect(preview.querySelector('script')).toBeNull();
    expect(preview.querySelector('img')).toBeNull();
    expect(preview.querySelector('.prose-app')).not.toBeNull();
  });

  it('asks for a valid address before saving', async () => {
    const requests: string[] = [];
    globalThis.fetch = async (input: RequestInfo | URL) => {
      requests.push(String(input instanceof Request ? input.url : input));
      return new Response('{}', { status: 500 });
    };
    renderEditor();
    fireEvent.change(screen.getByLabelText('Title'), { target: { value: 'A post' } });
    fireEvent.change(screen.getByLabelText('Address'), { target: { value: 'bad address!' } });
    fireEvent.click(screen.getByTestId('blog-save'));
    expect(await screen.findByText('Use lower-case Latin letters, digits and single hyphens.')).toBeTruthy();
    expect(requests).toEqual([]);
    expect(slugOf('  Hello, World  ')).toBe('hello-world');
  });
});
