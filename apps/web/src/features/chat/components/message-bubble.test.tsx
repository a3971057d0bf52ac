import { fireEvent, render, screen } from '@testing-library/react';
import { beforeAll, describe, expect, it } from 'vitest';
import type { Message } from '@reverie/shared';
import { initI18n } from '../../../lib/i18n';
import { formatMessageTime } from '../../../lib/message-time';
import { message } from '../test-helpers';
import { MessageBubble } from './message-bubble';

const renderBubble = (m: Message) =>
  render(
    <ol>
      <MessageBubble message={m} botName="Aiko" botAvatar={null} isLastBot={false} busy={false} />
    </ol>,
  );

beforeAll(async () => {
  await initI18n('en');
});

describe('MessageBubble: roleplay text', () => {
  it("renders a greeting's *action* as <em> without asterisks and **bold** as <strong>", () => {
    const { container } = renderBubble(
      message('g1', { text: '*She pours a glass* Here, **for you**. <img src=x onerror="alert(1)">' }),
    );
    const greeting = screen.getByTestId('greeting');
    const action = greeting.querySelector('em');
    expect(action?.textContent).toBe('She pours a glass');
    expect(greeting.querySelector('strong')?.textContent).toBe('for you');
    expect(greeting.textContent).not.toContain('*');
    // No HTML passes through: the tag is text, no <img> element exists.
    expect(greeting.textContent).toContain('<img src=x onerror="alert(1)">');
    expect(container.querySelector('img')).toBeNull();
  });

  it("renders the user's own *actions* too, and keeps unbalanced asterisks", () => {
    renderBubble(message('u1', { role: 'user', text: '*hugs you* a 5* day', reply_to: null }));
    const item = screen.getByTestId('message-user');
    expect(item.querySelector('em')?.textContent).toBe('hugs you');
    expect(item.textContent).toContain('a 5* day');
  });

  it('shows an action in italics while the reply is still streaming in', () => {
    renderBubble(message('r1', { text: 'Sure. *She reaches for', state: 'streaming', reply_to: 'u1' }));
    expect(screen.getByTestId('message-text').querySelector('em')?.textContent).toBe('She reaches for');
  });
});

describe('MessageBubble: a stopped reply', () => {
  it('keeps what was written, marked "Stopped"', () => {
    renderBubble(message('r1', { text: 'Well, I', state: 'stopped', reply_to: 'u1' }));
    expect(screen.getByTestId('message-text').textContent).toBe('Well, I');
    expect(screen.getByTestId('message-stopped').textContent).toBe('Stopped');
  });

  it('stopped before its first word: no empty bubble, and the note says so', () => {
    renderBubble(message('r1', { text: '', state: 'stopped', reply_to: 'u1' }));
    expect(screen.queryByTestId('message-text')).toBeNull();
    expect(screen.getByTestId('message-bot').querySelector('.rounded-2xl')).toBeNull();
    expect(screen.getByTestId('message-stopped').textContent).toBe('Stopped before the first word');
  });
});

describe('MessageBubble: time', () => {
  it("has a <time dateTime> in the locale's format, revealed by a tap on the bubble", () => {
    const iso = '2026-11-20T18:05:00.000Z';
    renderBubble(message('r1', { text: 'Hello', created_at: iso, reply_to: 'u1' }));
    const time = screen.getByTestId('message-time');
    expect(time.tagName).toBe('TIME');
    expect(time.getAttribute('datetime')).toBe(iso);
    expect(time.textContent).toBe(formatMessageTime(iso, 'en'));
    expect(time.className).toContain('text-transparent');
    fireEvent.click(screen.getByTestId('message-text'));
    expect(screen.getByTestId('message-time').dataset.shown).toBe('true');
    expect(screen.getByTestId('message-time').className).not.toContain('text-transparent');
  });

  it('formats today as a time and older messages with their date', () => {
    const now = new Date(2026, 10, 23, 15, 0);
    const today = new Date(2026, 10, 23, 9, 7).toISOString();
    const older = new Date(2026, 10, 2, 9, 7).toISOString();
    const lastYear = new Date(2025, 0, 2, 9, 7).toISOString();
    expect(formatMessageTime(today, 'en', now)).toBe('9:07 AM');
    expect(formatMessageTime(today, 'de', now)).toBe('09:07');
    expect(formatMessageTime(older, 'en', now)).toBe('Nov 2, 9:07 AM');
    expect(formatMessageTime(older, 'ru', now)).toMatch(/^2 нояб\.?,? (в )?9:07$/);
    expect(formatMessageTime(lastYear, 'en', now)).toBe('Jan 2, 2025, 9:07 AM');
    expect(formatMessageTime(today, 'ch', now)).toMatch(/9:07|09:07/);
    expect(formatMessageTime('', 'en', now)).toBe('');
  });
});

describe('MessageBubble: said in a call', () => {
  it('marks messages with `spoken: true` (both sides) and nothing else', () => {
    // A message said in a call (issue 14).
    const spoken = (m: Message) => ({ ...m, spoken: true }) as Message;
    const { unmount } = renderBubble(spoken(message('u1', { role: 'user', text: 'Hello there' })));
    expect(screen.getByTestId('message-spoken').getAttribute('title')).toBe('Said in a call');
    unmount();
    const bot = renderBubble(spoken(message('b1', { role: 'bot', text: 'Hi!', reply_to: 'u1' })));
    expect(screen.getAllByTestId('message-spoken')).toHaveLength(1);
    bot.unmount();
    renderBubble(message('b2', { role: 'bot', text: 'Typed', reply_to: 'u1' }));
    expect(screen.queryByTestId('message-spoken')).toBeNull();
  });
});

describe('MessageBubble: she wrote first', () => {
  it('marks a proactive message with “wrote first”, and an answer with nothing', () => {
    const first = renderBubble({ ...message('b1', { role: 'bot', text: 'How was the lighthouse?' }), proactive: true });
    const mark = screen.getByTestId('message-wrote-first');
    expect(mark.textContent).toBe('wrote first');
    expect(mark.getAttribute('title')).toMatch(/wrote this first/);
    first.unmount();
    renderBubble(message('b2', { role: 'bot', text: 'An answer', reply_to: 'u1' }));
    expect(screen.queryByTestId('message-wrote-first')).toBeNull();
  });
});

describe('MessageBubble: a picture in a group chat', () => {
  it("names the character who sent it and shows her face, not the chat's first character", () => {
    const bea = { bot_id: 'b2', slug: 'bea', name: 'Bea', avatar_url: '/api/media/bots/b2/avatar.webp' };
    const { container } = render(
      <ol>
        <MessageBubble
          message={message('p1', {
            kind: 3,
            text: '',
            img_url: '/api/media/chat/p1-preview.webp',
            reply_to: 'u1',
            speaker: { kind: 'character', ...bea },
          })}
          botName="Aiko"
          botAvatar="/api/media/bots/b1/avatar.webp"
          isLastBot={false}
          busy={false}
          renderPicture={(m) => <span data-testid="picture-of">{m.speaker?.name}</span>}
        />
      </ol>,
    );
    expect(screen.getByTestId('message-speaker').textContent).toBe('Bea');
    expect(screen.getByTestId('picture-of').textContent).toBe('Bea');
    expect(container.querySelector('img')?.getAttribute('src')).toBe(bea.avatar_url);
  });
});
