import { describe, expect, it } from 'vitest';
import {
  afterQuietHours,
  inQuietHours,
  inQuietMinutes,
  localTime,
  nextLocalDay,
  nextLocalTime,
  nextSlot,
  type QuietHours,
} from './schedule.js';

const quiet = (timeZone: string | null, start = 22 * 60, end = 9 * 60): QuietHours => ({
  timeZone,
  quietStart: start,
  quietEnd: end,
});
const at = (iso: string) => new Date(iso);
const local = (d: Date, zone: string) => {
  const t = localTime(d, zone);
  return `${t.day} ${String(Math.floor(t.minutes / 60)).padStart(2, '0')}:${String(t.minutes % 60).padStart(2, '0')}`;
};

describe('quiet hours in the user’s time zone', () => {
  it('spans midnight by default (22:00–09:00), and an equal start and end means none', () => {
    expect(inQuietMinutes(23 * 60, 1320, 540)).toBe(true);
    expect(inQuietMinutes(3 * 60, 1320, 540)).toBe(true);
    expect(inQuietMinutes(9 * 60, 1320, 540)).toBe(false);
    expect(inQuietMinutes(21 * 60 + 59, 1320, 540)).toBe(false);
    expect(inQuietMinutes(13 * 60, 12 * 60, 14 * 60)).toBe(true);
    expect(inQuietMinutes(3 * 60, 600, 600)).toBe(false);
  });

  it('reads the same instant as night in Tokyo and afternoon in New York', () => {
    const instant = at('2026-06-15T15:00:00Z'); // Tokyo 00:00, New York 11:00, Berlin 17:00
    expect(inQuietHours(instant, quiet('Asia/Tokyo'))).toBe(true);
    expect(inQuietHours(instant, quiet('America/New_York'))).toBe(false);
    expect(inQuietHours(instant, quiet('Europe/Berlin'))).toBe(false);
    // Unknown zone: UTC (15:00, not quiet).
    expect(inQuietHours(instant, quiet(null))).toBe(false);
    expect(inQuietHours(instant, quiet('Not/AZone'))).toBe(false);
  });

  it('moves a slot in the quiet hours to their end in local time, with some spread', () => {
    const night = at('2026-06-15T15:30:00Z'); // Tokyo 00:30
    const moved = afterQuietHours(night, quiet('Asia/Tokyo'), () => 0);
    expect(local(moved, 'Asia/Tokyo')).toBe('2026-06-16 09:00');
    const spread = afterQuietHours(night, quiet('Asia/Tokyo'), () => 0.5);
    expect(local(spread, 'Asia/Tokyo')).toBe('2026-06-16 09:45');
    // Out of the quiet hours: unchanged.
    const day = at('2026-06-15T03:00:00Z'); // Tokyo 12:00
    expect(afterQuietHours(day, quiet('Asia/Tokyo'), () => 0)).toEqual(day);
  });

  it('finds 09:00 local across the spring-forward night (New York, 8 March 2026)', () => {
    // 23:00 EST on 7 March = 04:00Z on 8 March; clocks jump 02:00 → 03:00; 09:00 EDT = 13:00Z.
    const end = nextLocalTime(at('2026-03-08T04:00:00Z'), 'America/New_York', 9 * 60);
    expect(end.toISOString()).toBe('2026-03-08T13:00:00.000Z');
    expect(local(end, 'America/New_York')).toBe('2026-03-08 09:00');
  });

  it('finds 09:00 local across the fall-back night (Berlin, 25 October 2026)', () => {
    // 23:00 CEST on 24 October = 21:00Z; clocks go 03:00 → 02:00; 09:00 CET = 08:00Z.
    const end = nextLocalTime(at('2026-10-24T21:00:00Z'), 'Europe/Berlin', 9 * 60);
    expect(end.toISOString()).toBe('2026-10-25T08:00:00.000Z');
  });

  it('a quiet end the spring-forward skips (02:30) lands just after the jump, never before now', () => {
    const from = at('2026-03-08T06:00:00Z'); // 01:00 EST
    const end = nextLocalTime(from, 'America/New_York', 2 * 60 + 30);
    expect(end.getTime()).toBeGreaterThan(from.getTime());
    expect(localTime(end, 'America/New_York').minutes).toBeGreaterThanOrEqual(3 * 60);
  });

  it('no slot is planned in the quiet hours, whatever the jitter, on DST days too', () => {
    const zones = ['America/New_York', 'Europe/Berlin', 'Asia/Kolkata', 'Australia/Sydney', 'Pacific/Chatham'];
    const starts = ['2026-03-07T12:00:00Z', '2026-03-29T00:30:00Z', '2026-10-24T18:00:00Z', '2026-11-01T05:00:00Z'];
    let seed = 7;
    const random = () => (seed = (seed * 48271) % 2147483647) / 2147483647;
    for (const zone of zones)
      for (const start of starts)
        for (const frequency of ['few_weekly', 'daily', 'several_daily'] as const)
          for (let i = 0; i < 20; i++) {
            const slot = nextSlot(at(start), frequency, quiet(zone), random);
            expect(inQuietHours(slot, quiet(zone)), `${zone} ${start} ${frequency} ${slot.toISOString()}`).toBe(false);
            expect(slot.getTime()).toBeGreaterThan(at(start).getTime());
          }
  });

  it('jitters: never on the minute for everyone', () => {
    const from = at('2026-06-15T10:00:00Z');
    const slots = new Set<number>();
    for (let i = 0; i < 50; i++) slots.add(nextSlot(from, 'several_daily', quiet('UTC', 0, 0)).getTime());
    expect(slots.size).toBeGreaterThan(45);
    expect([...slots].filter((t) => t % 60_000 === 0).length).toBeLessThan(3);
  });

  it('the next local day starts after midnight and out of the quiet hours', () => {
    const evening = at('2026-06-15T18:00:00Z'); // Berlin 20:00
    const next = nextLocalDay(evening, quiet('Europe/Berlin'), () => 0);
    expect(local(next, 'Europe/Berlin').startsWith('2026-06-16 09:0')).toBe(true);
  });
});
