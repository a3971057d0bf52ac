import { describe, expect, it } from 'vitest';
import { formatMessageDay, localDay } from './message-time';

const words = { today: 'Today', yesterday: 'Yesterday' };
const now = new Date(2026, 10, 29, 12);
const at = (year: number, month: number, day: number, hour = 9) => new Date(year, month, day, hour).toISOString();

describe('the day above a run of messages', () => {
  it('says today and yesterday in the caller’s words, by the reader’s calendar', () => {
    expect(formatMessageDay(at(2026, 10, 29, 0), 'en', words, now)).toBe('Today');
    expect(formatMessageDay(at(2026, 10, 28, 23), 'en', words, now)).toBe('Yesterday');
    expect(localDay(at(2026, 10, 28, 23))).toBe(20261128);
  });

  it('writes an older day with its weekday in the interface language, the year only when it is not this one', () => {
    expect(formatMessageDay(at(2026, 10, 21), 'en', words, now)).toBe('Saturday, November 21');
    expect(formatMessageDay(at(2026, 10, 21), 'de', words, now)).toBe('Samstag, 21. November');
    // A label of its own: capitalised where a sentence writes the weekday small.
    expect(formatMessageDay(at(2026, 10, 21), 'ru', words, now)).toBe('Суббота, 21 ноября');
    expect(formatMessageDay(at(2026, 10, 21), 'es', words, now)).toBe('Sábado, 21 de noviembre');
    expect(formatMessageDay(at(2026, 10, 21), 'ch', words, now)).toBe('11月21日星期六');
    expect(formatMessageDay(at(2025, 2, 4), 'de', words, now)).toBe('Dienstag, 4. März 2025');
    expect(formatMessageDay('not a date', 'en', words, now)).toBe('');
  });
});
