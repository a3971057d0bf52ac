// TEMPORARY (replaced by the chatlogic branch)
import type { Locale } from '@reverie/shared';
export const signalsCrisis = (t: string) => /kill myself|suicide/i.test(t);
export const crisisReply = (_l: Locale) => 'If you are thinking about suicide, call or text 988.';
export const violatesMinorsPolicy = (t: string) => /\b(1[0-7]|[1-9]) ?(yo|years? old)\b.*\b(sex|nude)/i.test(t);
export const refusalText = (_l: Locale) => 'This conversation cannot continue in that direction.';
export const disclosureText = (_l: Locale, n: string) => `${n} is an AI character, not a real person.`;
export function needsDisclosure(last: Date | null, activity: Date | null, now: Date) {
  if (!last) return true;
  if (activity && now.getTime() - activity.getTime() >= 30 * 60_000) return true;
  return now.getTime() - last.getTime() >= 3 * 3600_000;
}
