import { z } from 'zod';

/**
 * Real-time voice calls (API.md "Pictures and voice", docs/calls.md): the token request and
 * the WebSocket protocol, version 1. The server and the web app both build on these types.
 */

/** The protocol's version; the server's `ready` names it, a client of another major refuses. */
export const CALL_PROTOCOL_VERSION = 1;

/** Upstream audio: mono 16-bit little-endian PCM at 16 kHz, in frames of 20 ms (640 bytes). */
export const CALL_INPUT_SAMPLE_RATE = 16_000;
export const CALL_INPUT_FRAME_MS = 20;

/** POST /api/audio_chat/token: exactly one of `slug` (the latest chat with that character, or a new one) and `chat_id`. */
export const CallTokenBodySchema = z
  .object({
    slug: z.string().min(1).max(100).optional(),
    chat_id: z.uuid().optional(),
  })
  .refine((body) => (body.slug === undefined) !== (body.chat_id === undefined), {
    message: 'Give either slug or chat_id',
  });
export type CallTokenBody = z.infer<typeof CallTokenBodySchema>;

export const CallTokenResponseSchema = z
  .object({
    /** Short-lived (about a minute), bound to the user, the chat and the call. */
    token: z.string(),
    /** Where to open the WebSocket, token included (`/api/audio_chat/ws?token=…`), relative to the API's origin. */
    url: z.string(),
    expires_at: z.string(),
    call_id: z.uuid(),
    chat_id: z.uuid(),
    /** Seconds of calling left today (CALL_MINUTES_PER_DAY). */
    seconds_left: z.number().int().min(0),
  })
  .meta({ id: 'CallTokenResponse' });
export type CallTokenResponse = z.infer<typeof CallTokenResponseSchema>;

/** Where the call stands, as the server's state machine has it. */
export const CALL_STATES = ['listening', 'user_speaking', 'thinking', 'speaking'] as const;
export type CallState = (typeof CALL_STATES)[number];

/** Why a call ended. */
export const CALL_END_REASONS = [
  'hangup',
  'minutes_exhausted',
  'timeout',
  'replaced',
  'server_shutdown',
  'error',
] as const;
export type CallEndReason = (typeof CALL_END_REASONS)[number];

/** JSON messages from the server (text frames). Binary frames from the server are reply audio. */
export type CallServerMessage =
  | {
      type: 'ready';
      version: number;
      call_id: string;
      chat_id: string;
      /** What to send up. */
      input: { format: 'pcm16'; sample_rate: number; frame_ms: number };
      /** What binary frames down carry: mono 16-bit little-endian PCM at this rate. */
      output: { format: 'pcm16'; sample_rate: number };
      /** Reconnect with `/api/audio_chat/ws?resume=…` within `resume_grace_s` after a drop. */
      resume: string;
      resume_grace_s: number;
      /** Seconds this call has lasted so far (a resumed call goes on counting) and may still last today. */
      elapsed_s: number;
      seconds_left: number;
      /** Where the call stands now (a resumed call may be thinking or speaking). */
      state: CallState;
    }
  | { type: 'state'; state: CallState }
  /** Captions: the user's words once recognised (final), the character's as each sentence starts playing. */
  | { type: 'caption'; role: 'user' | 'bot'; turn_id: string; message_id: string | null; text: string; final: boolean }
  /** Binary frames after this belong to this turn, at `sample_rate`. */
  | { type: 'audio_start'; turn_id: string; sample_rate: number }
  /** The turn's audio is all sent. */
  | { type: 'audio_end'; turn_id: string }
  /** The user barged in: flush playback at once, drop this turn's frames, answer `flushed`. */
  | { type: 'interrupt'; turn_id: string }
  | { type: 'time'; elapsed_s: number; seconds_left: number }
  /** A turn failed (speech not understood, the model failed) and the call goes on. */
  | { type: 'notice'; code: string; detail: string }
  /** The call is over; the socket closes after it. */
  | { type: 'end'; reason: CallEndReason; detail?: string };

/** JSON messages from the client (text frames). Binary frames from the client are microphone audio. */
export type CallClientMessage =
  | { type: 'mute'; muted: boolean }
  /** Push-to-talk: while `down`, the user speaks; release ends the turn (no end-of-turn silence needed). */
  | { type: 'ptt'; mode: boolean }
  | { type: 'talk'; down: boolean }
  /** The answer to `interrupt`: how much of the turn's audio was actually played. */
  | { type: 'flushed'; turn_id: string; played_ms: number }
  /** What the client has played of the current turn so far (sent every ~250 ms while speaking). */
  | { type: 'played'; turn_id: string; played_ms: number }
  | { type: 'hangup' };

/** WebSocket close codes the server uses besides 1000 (normal end, after an `end` message). */
export const CALL_CLOSE_CODES = {
  /** The token or resume key is missing, malformed or expired. */
  invalid_token: 4001,
  /** The call was taken over by another connection (resume from another tab or device). */
  replaced: 4002,
  /** The call is over (ended, or the grace period to resume ran out). */
  call_over: 4004,
  /** A message broke the protocol (unparseable JSON, an oversized frame). */
  protocol_error: 4400,
} as const;
