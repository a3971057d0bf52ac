import { describe, expect, it } from 'vitest';
import { message } from './test-helpers';
import { estimateRowHeight, rowEstimates, rowMetrics, textLines, type RowMetrics } from './row-estimates';

/** A phone's bubbles (390 px window) with the app's font: 7.5 px a letter, 15.2 px an ideograph. */
const phone: RowMetrics = { userText: 245, botText: 268, lineHeight: 24.7, letter: 7.5, ideograph: 15.2 };

describe('row estimates', () => {
  it('counts the lines of a text in its bubble, each paragraph its own, ideographs a full em', () => {
    expect(textLines('Hi', phone.userText, phone)).toBe(1);
    // 57 letters × 7.5 px = 427 px in lines of 245 × 0.96 px: two lines.
    expect(textLines('x'.repeat(57), phone.userText, phone)).toBe(2);
    expect(textLines('one\ntwo\n\nthree', phone.userText, phone)).toBe(4);
    // 30 ideographs are twice as wide as 30 letters.
    expect(textLines('我'.repeat(30), phone.botText, phone)).toBe(2);
    expect(textLines('a'.repeat(30), phone.botText, phone)).toBe(1);
  });

  it('adds what each kind of row holds around its text', () => {
    const user = estimateRowHeight(message('u', { role: 'user', text: 'Hello there' }), phone);
    const bot = estimateRowHeight(message('b', { role: 'bot', text: 'Hello there' }), phone);
    expect(user).toBe(Math.round(63 + 24.7));
    expect(bot).toBe(Math.round(66 + 24.7));
    const picture = estimateRowHeight(message('p', { role: 'bot', text: '', img_url: '/p.png' }), phone);
    expect(picture).toBe(66 + 343);
    expect(
      estimateRowHeight(
        message('n', { role: 'bot', text: 'You are talking to an AI', notice: 'ai_disclosure' }),
        phone,
      ),
    ).toBe(72);
    // A long reply grows by a line height a line.
    const long = estimateRowHeight(message('l', { role: 'bot', text: 'word '.repeat(200) }), phone);
    expect(long).toBeGreaterThan(bot + 20 * 24.7);
  });

  it('starts the list from each message, the first (the guess for the rows to come) at the mean', () => {
    const messages = [
      message('a', { role: 'user', text: 'ok' }),
      message('b', { role: 'bot', text: 'word '.repeat(100) }),
      message('c', { role: 'user', text: 'word '.repeat(20) }),
    ];
    const own = messages.map((m) => estimateRowHeight(m, phone));
    const mean = Math.round((own[0]! + own[1]! + own[2]!) / 3);
    // A window opening on a one-line message does not make every older row one line tall.
    expect(rowEstimates(messages, phone)).toEqual([mean, own[1], own[2]]);
    expect(rowEstimates([], phone)).toEqual([]);
  });

  it('sizes the bubbles from the window: the phone full width, a wide window at the column and its caps', () => {
    const narrow = rowMetrics(390);
    expect(narrow.userText).toBeCloseTo((390 - 24 - 40) * 0.85 - 32);
    expect(narrow.botText).toBeCloseTo(390 - 24 - 64 - 34);
    expect(narrow.lineHeight).toBeCloseTo(0.95 * 16 * 1.625);
    expect(narrow.letter).toBeGreaterThan(0);
    expect(rowMetrics(390)).toBe(narrow);
    const wide = rowMetrics(1280);
    expect(wide.userText).toBeCloseTo((768 - 32 - 40) * 0.7 - 32);
    expect(wide.botText).toBeCloseTo(36 * 16 - 34);
  });
});
