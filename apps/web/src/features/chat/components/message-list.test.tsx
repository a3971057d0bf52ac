import { render, screen } from '@testing-library/react';
import { beforeAll, describe, expect, it } from 'vitest';
import { initI18n } from '../../../lib/i18n';
import { message } from '../test-helpers';
import { MessageList } from './message-list';

beforeAll(async () => {
  await initI18n('en');
});

describe('MessageList', () => {
  it('scrolls a picture into view when it finishes loading while the user is at the bottom', () => {
    const picture = message('p1', { kind: 2, img_url: '/api/media/chats/u1/p.webp', reply_to: 'u1' });
    render(
      <MessageList
        messages={[message('g1', { text: 'Hi' }), picture]}
        botName="Aiko"
        botAvatar={null}
        lastBotId="p1"
        busy={false}
        waitingForReply={false}
        hasOlder={false}
        isLoadingOlder={false}
        loadOlder={() => {}}
        renderPicture={(m) => <img src={m.img_url!} alt="" data-testid="picture" />}
      />,
    );
    const scroller = screen.getByTestId('message-scroller');
    // The picture arrived: the content grew by its height.
    Object.defineProperty(scroller, 'scrollHeight', { configurable: true, value: 1400 });
    Object.defineProperty(scroller, 'clientHeight', { configurable: true, value: 700 });
    screen.getByTestId('picture').dispatchEvent(new Event('load'));
    expect(scroller.scrollTop).toBe(1400);

    // Scrolled up to read: a later load leaves the view alone.
    scroller.scrollTop = 100;
    scroller.dispatchEvent(new Event('scroll'));
    Object.defineProperty(scroller, 'scrollHeight', { configurable: true, value: 1800 });
    screen.getByTestId('picture').dispatchEvent(new Event('load'));
    expect(scroller.scrollTop).toBe(100);
  });
});
