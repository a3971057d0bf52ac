import { afterEach, describe, expect, it } from 'vitest';
import { countIntlMade, restoreIntl } from '../test/intl';
import { formatDate, formatNumber, formatPrice, formatRelative } from './format';
import { formatMessageTime, warmMessageTimes } from './message-time';

/** Intl formatters are made once per language and options (making one is what costs). */

afterEach(restoreIntl);

describe('formatters made once', () => {
  it('reuses one formatter per kind, language and options across calls', () => {
    const dates = countIntlMade('DateTimeFormat');
    const numbers = countIntlMade('NumberFormat');
    const relative = countIntlMade('RelativeTimeFormat');
    const now = Date.parse('2026-11-29T12:00:00Z');
    for (let i = 0; i < 50; i++) {
      expect(formatDate('2026-11-12T10:00:00Z', 'de')).toBe('12.11.2026');
      expect(formatNumber(1234 + i, 'de')).toBe(`1.${234 + i}`);
      expect(formatRelative('2026-11-29T11:00:00Z', 'ru', now)).toBe('1 час назад');
    }
    expect(formatPrice(199, 'usd', 'en')).toBe('$1.99');
    expect(formatPrice(0, 'usd', 'en')).toBe('$0');
    expect(dates.made).toBe(1);
    // formatNumber's, and a price's two (with and without cents).
    expect(numbers.made).toBe(3);
    expect(relative.made).toBe(1);
  });

  it("warms the message times' formatters: the chat's first render makes none", () => {
    warmMessageTimes('es');
    const dates = countIntlMade('DateTimeFormat');
    const today = new Date();
    formatMessageTime(today.toISOString(), 'es');
    formatMessageTime(new Date(today.getFullYear(), 0, 1, 10).toISOString(), 'es');
    formatMessageTime(new Date(today.getFullYear() - 1, 5, 1, 10).toISOString(), 'es');
    expect(dates.made).toBe(0);
    // Without the warm-up, that render would have made them.
    formatMessageTime(new Date(today.getFullYear() - 1, 5, 1, 10).toISOString(), 'ru');
    expect(dates.made).toBe(1);
  });
});
