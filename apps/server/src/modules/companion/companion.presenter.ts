import type { ChatCompanion, CompanionSettings } from '@reverie/shared';
import {
  COMPANION_DAILY_CAP_DEFAULT,
  COMPANION_QUIET_END_DEFAULT,
  COMPANION_QUIET_START_DEFAULT,
} from '@reverie/shared';
import type { SettingsRow, SlotRow } from './companion.repository.js';
import { minutesToClock } from './schedule.js';

/** The user's companion settings (the defaults while none are saved). */
export function presentSettings(row: SettingsRow | null, emailVerified: boolean): CompanionSettings {
  return {
    time_zone: row?.timeZone ?? null,
    quiet_start: row ? minutesToClock(row.quietStart) : COMPANION_QUIET_START_DEFAULT,
    quiet_end: row ? minutesToClock(row.quietEnd) : COMPANION_QUIET_END_DEFAULT,
    daily_cap: row?.dailyCap ?? COMPANION_DAILY_CAP_DEFAULT,
    email_digest: row?.emailDigest ?? false,
    email_verified: emailVerified,
  };
}

export function presentChatCompanion(chatId: string, slot: SlotRow | null): ChatCompanion {
  return {
    chat_id: chatId,
    frequency: slot?.frequency ?? 'off',
    next_at: slot?.dueAt?.toISOString() ?? null,
  };
}
