/**
 * A send, decided before anything is written (docs/chat.md "How a send is planned"): pure
 * functions from the text and the chat as read to the rows to write, the reply to start, the
 * safety outcome and the picture branch. `RepliesService.send` carries the plan out.
 */
import type { Locale } from '@reverie/shared';
import { MessageKind } from '@reverie/shared';
import { AppError } from '../../lib/errors.js';
import { estimateTokens } from '../../providers/llm/llm.js';
import type { PromptRow } from './chat-context.repository.js';
import type { ChatRow } from './chats.repository.js';
import type { NewMessage } from './messages.repository.js';
import {
  crisisReply,
  disclosureText,
  needsDisclosure,
  refusalText,
  signalsCrisis,
  violatesMinorsPolicy,
} from './safety.js';

/** What the text alone decides, before the chat is read. */
export interface Screening {
  /** The minors guard on input: the message is refused and its text is not kept. */
  refused: boolean;
  /** The crisis protocol: a fixed reply from the platform, never an improvised one. */
  crisis: boolean;
  /** A picture request: the pictures module answers it. */
  picture: boolean;
  /** The model writes a reply: the prompt's history is read with the chat. */
  wantsReply: boolean;
}

/** Screens a send's (trimmed) text: the minors guard first, then the crisis protocol, then a picture. */
export function screenMessage(text: string, isPictureRequest: (text: string) => boolean): Screening {
  const refused = violatesMinorsPolicy(text);
  const crisis = !refused && signalsCrisis(text);
  const picture = !refused && !crisis && isPictureRequest(text);
  return { refused, crisis, picture, wantsReply: !refused && !crisis && !picture };
}

/** The fair-use limit's answer: the 429 to throw when the user must wait, else null. */
export function fairUseRefusal(waitSeconds: number): AppError | null {
  if (waitSeconds <= 0) return null;
  return new AppError('rate_limited', { status: 429, headers: { 'retry-after': String(waitSeconds) } });
}

/** What a send is planned from: its text, the chat as read, and this replica as a reply's owner. */
export interface SendInput {
  /** The message's text, trimmed. */
  text: string;
  clientId: string;
  chatId: string;
  userId: string;
  locale: Locale;
  /** Said in a call: every message the send writes is saved as spoken. */
  spoken: boolean;
  now: Date;
  /** The id the user's message is written with (the reply answers it before its row exists). */
  userMessageId: string;
  chat: Pick<ChatRow, 'disclosedAt' | 'updatedAt'>;
  characterName: string;
  /** The replica that generates a new live reply, and its lease. */
  owner: { instanceId: string; leaseMs: number };
}

/** Who answers a send once its rows are written. */
export type Answer = 'model' | 'picture' | 'none';

/** A send, decided: what `RepliesService` writes and starts. */
export interface SendPlan {
  chatId: string;
  userId: string;
  clientId: string;
  /** The rows written in one statement, in `seq` order: the user's message first. */
  rows: NewMessage[];
  /** Written on the chat with them: the disclosure's time when its notice is among the rows. */
  chatValues: { disclosedAt?: Date };
  /** The safety event recorded once the rows are written. */
  safetyEvent: 'minors_input' | 'crisis' | null;
  /** `model`: the empty live reply is among the rows; `picture`: the pictures module answers. */
  answer: Answer;
  /** Whether the rows hold a live reply (the unique index then refuses a second one, 409). */
  writesLiveReply: boolean;
  /**
   * The user's message as the prompt's last turn, for a reply started before the rows are
   * written; its seq is only known once written, and nothing in the prompt reads it.
   */
  asked: PromptRow;
  /** The live reply written when no picture could be sent: the character answers in words. */
  wordsInstead: NewMessage;
}

/** Plans a send from its screening and the chat as read. */
export function planSend(screening: Screening, input: SendInput): SendPlan {
  const rows = sendRows(input);
  const disclose = !screening.refused && needsDisclosure(input.chat.disclosedAt, input.chat.updatedAt, input.now);
  const planned: NewMessage[] = [];
  if (screening.refused) {
    // The minors guard on input: the message is refused and its text is not kept.
    planned.push(
      { ...rows.user, text: '', state: 'failed', errorCode: 'refused' },
      rows.notice('refusal', refusalText(input.locale)),
    );
  } else {
    planned.push(rows.user);
    if (disclose) planned.push(rows.notice('ai_disclosure', disclosureText(input.locale, input.characterName)));
    // The crisis protocol: a fixed reply from the platform, never an improvised one.
    if (screening.crisis) planned.push(rows.notice('crisis', crisisReply(input.locale)));
    if (screening.wantsReply) planned.push(rows.liveReply);
  }
  return {
    chatId: input.chatId,
    userId: input.userId,
    clientId: input.clientId,
    rows: planned,
    chatValues: disclose ? { disclosedAt: input.now } : {},
    safetyEvent: screening.refused ? 'minors_input' : screening.crisis ? 'crisis' : null,
    answer: screening.wantsReply ? 'model' : screening.picture ? 'picture' : 'none',
    writesLiveReply: screening.wantsReply,
    asked: {
      id: input.userMessageId,
      seq: Number.MAX_SAFE_INTEGER,
      role: 'user',
      text: input.text,
      tokens: estimateTokens(input.text),
    },
    wordsInstead: rows.liveReply,
  };
}

/** The rows a send may write: the user's message, a platform notice, the empty live reply. */
function sendRows(input: SendInput) {
  const base = {
    chatId: input.chatId,
    userId: input.userId,
    kind: MessageKind.Text,
    state: 'done' as const,
    ...(input.spoken ? { spoken: true } : {}),
  };
  const user: NewMessage = {
    ...base,
    id: input.userMessageId,
    clientId: input.clientId,
    role: 'user',
    text: input.text,
  };
  const liveReply: NewMessage = {
    ...base,
    role: 'bot',
    state: 'streaming',
    text: '',
    replyTo: input.userMessageId,
    owner: input.owner.instanceId,
    leaseMs: input.owner.leaseMs,
  };
  const notice = (kind: NonNullable<NewMessage['notice']>, text: string): NewMessage => ({
    ...base,
    role: 'system',
    text,
    notice: kind,
  });
  return { user, liveReply, notice };
}
