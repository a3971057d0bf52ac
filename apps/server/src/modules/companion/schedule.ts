/**
 * When she may write (docs/companion.md "The schedule"): pure functions of an instant, the
 * user's time zone and settings. Local times come from `Intl` (the zone's rules, DST included).
 */
import type { ProactiveFrequency } from '@reverie/shared';

export type Frequency = Exclude<ProactiveFrequency, 'off'>;

/** The mean time between two of her messages per frequency. */
export const FREQUENCY_INTERVAL_MS: Record<Frequency, number> = {
  few_weekly: 56 * 3600_000, // three a week
  daily: 24 * 3600_000,
  several_daily: 6 * 3600_000,
};

/** What the schedule needs of the user's settings. */
export interface QuietHours {
  timeZone: string | null;
  /** Minutes after local midnight. */
  quietStart: number;
  quietEnd: number;
}

export interface LocalTime {
  /** `YYYY-MM-DD`. */
  day: string;
  /** Minutes after local midnight. */
  minutes: number;
  /** 0 = Sunday. */
  weekday: number;
}

const formatters = new Map<string, Intl.DateTimeFormat>();
const WEEKDAYS = ['Sun', 'Mon', 'Tue', 'Wed', 'Thu', 'Fri', 'Sat'];

function formatter(timeZone: string): Intl.DateTimeFormat {
  let f = formatters.get(timeZone);
  if (!f) {
    f = new Intl.DateTimeFormat('en-US', {
      timeZone,
      hourCycle: 'h23',
      year: 'numeric',
      month: '2-digit',
      day: '2-digit',
      hour: '2-digit',
      minute: '2-digit',
      weekday: 'short',
    });
    if (formatters.size > 1000) formatters.clear();
    formatters.set(timeZone, f);
  }
  return f;
}

/** A zone this runtime knows, else UTC. */
export function safeZone(timeZone: string | null): string {
  if (!timeZone) return 'UTC';
  try {
    formatter(timeZone);
    return timeZone;
  } catch {
    return 'UTC';
  }
}

/** The local day, time and weekday of an instant in a zone. */
export function localTime(at: Date, timeZone: string | null): LocalTime {
  const parts: Record<string, string> = {};
  for (const part of formatter(safeZone(timeZone)).formatToParts(at)) parts[part.type] = part.value;
  return {
    day: `${parts.year}-${parts.month}-${parts.day}`,
    minutes: Number(parts.hour) * 60 + Number(parts.minute),
    weekday: WEEKDAYS.indexOf(parts.weekday!),
  };
}

/** `HH:MM` ↔ minutes after midnight. */
export const clockToMinutes = (clock: string): number => Number(clock.slice(0, 2)) * 60 + Number(clock.slice(3, 5));
export const minutesToClock = (minutes: number): string =>
  `${String(Math.floor(minutes / 60)).padStart(2, '0')}:${String(minutes % 60).padStart(2, '0')}`;

/** Whether local `minutes` fall in the quiet hours [start, end) (across midnight when start > end). */
export function inQuietMinutes(minutes: number, start: number, end: number): boolean {
  if (start === end) return false;
  return start < end ? minutes >= start && minutes < end : minutes >= start || minutes < end;
}

export function inQuietHours(at: Date, settings: QuietHours): boolean {
  return inQuietMinutes(localTime(at, settings.timeZone).minutes, settings.quietStart, settings.quietEnd);
}

/**
 * The first instant at or after `at` whose local time is `targetMinutes` (the end of the quiet
 * hours): found by the local clock, then corrected when a DST change lies in between.
 */
export function nextLocalTime(at: Date, timeZone: string | null, targetMinutes: number): Date {
  const now = localTime(at, timeZone).minutes;
  const ahead = (targetMinutes - now + 1440) % 1440;
  let candidate = new Date(at.getTime() + ahead * 60_000);
  // A DST change between `at` and the candidate moves the local clock by its size: correct it once.
  for (let i = 0; i < 2; i++) {
    const got = localTime(candidate, timeZone).minutes;
    let diff = targetMinutes - got;
    if (diff > 720) diff -= 1440;
    if (diff < -720) diff += 1440;
    if (diff === 0) break;
    const moved = new Date(candidate.getTime() + diff * 60_000);
    // A target the change skipped (02:30 on a spring-forward night) is the first minute after it.
    if (moved.getTime() < at.getTime()) break;
    candidate = moved;
  }
  return candidate;
}

/** An instant out of the quiet hours: `at` itself, or the quiet hours' end plus up to `spreadMs`. */
export function afterQuietHours(at: Date, settings: QuietHours, random: () => number, spreadMs = 90 * 60_000): Date {
  if (!inQuietHours(at, settings)) return at;
  const end = nextLocalTime(at, settings.timeZone, settings.quietEnd);
  return new Date(end.getTime() + Math.floor(random() * spreadMs) + 1000);
}

/**
 * Her next slot after `from`: the frequency's interval with ±30 % jitter and seconds that are
 * never on the minute for everyone, moved out of the quiet hours.
 */
export function nextSlot(from: Date, frequency: Frequency, settings: QuietHours, random: () => number = Math.random) {
  const interval = FREQUENCY_INTERVAL_MS[frequency];
  const due = new Date(from.getTime() + Math.floor(interval * (0.7 + 0.6 * random())) + Math.floor(random() * 60_000));
  return afterQuietHours(due, settings, random);
}

/** The start of the user's next local day, out of its quiet hours (the daily cap was reached). */
export function nextLocalDay(at: Date, settings: QuietHours, random: () => number = Math.random): Date {
  const midnight = nextLocalTime(new Date(at.getTime() + 60_000), settings.timeZone, 0);
  return afterQuietHours(new Date(midnight.getTime() + Math.floor(random() * 30 * 60_000) + 1000), settings, random);
}

/** The user's local time as the instruction names it: `Tuesday 18:40`. */
export function localTimeText(at: Date, timeZone: string | null): string {
  const zone = safeZone(timeZone);
  const weekday = new Intl.DateTimeFormat('en-US', { timeZone: zone, weekday: 'long' }).format(at);
  return `${weekday} ${minutesToClock(localTime(at, zone).minutes)}`;
}
