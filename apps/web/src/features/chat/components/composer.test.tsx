import { act, fireEvent, render, screen } from '@testing-library/react';
import { beforeAll, describe, expect, it, vi } from 'vitest';
import { MESSAGE_TEXT_MAX } from '@reverie/shared';
import { AppProviders } from '../../../lib/providers';
import { initI18n } from '../../../lib/i18n';
import { Composer } from './composer';

beforeAll(async () => {
  await initI18n('en');
});

function renderComposer(props: Partial<Parameters<typeof Composer>[0]> = {}) {
  const sent: string[] = [];
  const result = render(
    <AppProviders>
      <Composer
        botName="Aiko"
        busy={false}
        onSend={(text) => {
          sent.push(text);
          return true;
        }}
        {...props}
      />
    </AppProviders>,
  );
  const field = screen.getByLabelText('Your message to Aiko') as HTMLTextAreaElement;
  return { sent, field, ...result };
}

describe('Composer', () => {
  it('"Write my reply" gives back what the user had typed when no line comes (a failure, a stop)', async () => {
    let fail!: () => void;
    const { field } = renderComposer({
      onWriteMyReply: () =>
        new Promise<void>((resolve) => {
          fail = resolve;
        }),
    });
    fireEvent.change(field, { target: { value: 'I look at her and' } });
    fireEvent.click(screen.getByTestId('write-my-reply'));
    expect(field.value).toBe('');
    expect(field.readOnly).toBe(true);
    await act(async () => fail());
    expect(field.value).toBe('I look at her and');
    expect(field.readOnly).toBe(false);
  });

  it('"Write my reply" replaces the typed text with the line once it comes', async () => {
    let done!: () => void;
    let write!: (text: string) => void;
    const { field } = renderComposer({
      onWriteMyReply: (onText) =>
        new Promise<void>((resolve) => {
          write = onText;
          done = resolve;
        }),
    });
    fireEvent.change(field, { target: { value: 'I look at her and' } });
    fireEvent.click(screen.getByTestId('write-my-reply'));
    await act(async () => write('I smile.'));
    await act(async () => done());
    expect(field.value).toBe('I smile.');
  });

  it('measures its height only with text in it: empty, on opening and after a send, it keeps the CSS one', () => {
    const read = vi.spyOn(HTMLTextAreaElement.prototype, 'scrollHeight', 'get').mockReturnValue(70);
    const { field } = renderComposer();
    expect(read).not.toHaveBeenCalled();
    expect(field.style.height).toBe('');
    fireEvent.change(field, { target: { value: 'a longer line\nand another' } });
    expect(read).toHaveBeenCalled();
    expect(field.style.height).toBe('70px');
    read.mockReturnValue(400);
    fireEvent.change(field, { target: { value: 'many lines\n'.repeat(20) } });
    expect(field.style.height).toBe('160px');
    fireEvent.keyDown(field, { key: 'Enter' });
    expect(field.value).toBe('');
    expect(field.style.height).toBe('');
    read.mockRestore();
  });

  it('sends on Enter, keeps Shift+Enter and IME composition for new lines and words', () => {
    const { sent, field } = renderComposer();
    fireEvent.change(field, { target: { value: 'line one' } });
    fireEvent.keyDown(field, { key: 'Enter', shiftKey: true });
    fireEvent.keyDown(field, { key: 'Enter', isComposing: true });
    expect(sent).toEqual([]);
    fireEvent.keyDown(field, { key: 'Enter' });
    expect(sent).toEqual(['line one']);
    expect(field.value).toBe('');
    fireEvent.keyDown(field, { key: 'Enter' });
    fireEvent.change(field, { target: { value: '   ' } });
    fireEvent.keyDown(field, { key: 'Enter' });
    expect(sent).toEqual(['line one']);
  });

  it('holds at most 4000 characters and shows the count near the limit', () => {
    const { field } = renderComposer();
    expect(screen.queryByTestId('char-count')).toBeNull();
    fireEvent.change(field, { target: { value: 'x'.repeat(MESSAGE_TEXT_MAX + 50) } });
    expect(field.value).toHaveLength(MESSAGE_TEXT_MAX);
    expect(field.maxLength).toBe(MESSAGE_TEXT_MAX);
    expect(screen.getByTestId('char-count').textContent).toBe('4000/4000');
  });

  it('waits while busy and offers stop instead of send', () => {
    const stops: number[] = [];
    const { sent, field } = renderComposer({ busy: true, onStop: () => stops.push(1) });
    fireEvent.change(field, { target: { value: 'next' } });
    fireEvent.keyDown(field, { key: 'Enter' });
    expect(sent).toEqual([]);
    expect(screen.queryByTestId('send-button')).toBeNull();
    fireEvent.click(screen.getByTestId('stop-button'));
    expect(stops).toEqual([1]);
    expect(field.value).toBe('next');
  });

  it('keeps an unsent draft under its key (a guest asked to log in finds the text again)', () => {
    const first = renderComposer({ draftKey: 'chat-draft:aiko', onSend: () => false });
    fireEvent.change(first.field, { target: { value: 'Hello Aiko' } });
    fireEvent.keyDown(first.field, { key: 'Enter' });
    first.unmount();
    const second = renderComposer({ draftKey: 'chat-draft:aiko' });
    expect(second.field.value).toBe('Hello Aiko');
    fireEvent.keyDown(second.field, { key: 'Enter' });
    expect(second.sent).toEqual(['Hello Aiko']);
    expect(window.sessionStorage.getItem('chat-draft:aiko')).toBeNull();
  });
});
