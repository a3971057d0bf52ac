/**
 * What the model is asked after a user turn, and how its answer is read (docs/memory.md
 * "Extraction"): the new messages and the memories they may touch, numbered; the answer is a
 * JSON object of operations (add / update / forget) under a JSON schema — `response_format` on
 * an OpenAI-compatible endpoint, a grammar on the local engine — and validated with zod, since
 * not every endpoint enforces the schema.
 */
import { z } from 'zod';
import { MEMORY_KINDS, MEMORY_TEXT_MAX, type Locale } from '@reverie/shared';
import type { ChatTurn } from '../../providers/llm/llm.js';
import { LANGUAGE_NAMES } from '../../lib/i18n.js';

const SUBJECTS = ['user', 'character', 'relationship', 'third_party'] as const;

const day = z
  .string()
  .regex(/^\d{4}-\d{2}-\d{2}$/)
  .nullable()
  .catch(null);

export const MemoryOpSchema = z.discriminatedUnion('op', [
  z.object({
    op: z.literal('add'),
    kind: z.enum(MEMORY_KINDS),
    subject: z.enum(SUBJECTS),
    text: z.string().trim().min(1).max(MEMORY_TEXT_MAX),
    importance: z.number().int().min(1).max(5).catch(3),
    event_date: day,
    /** The numbers of the messages it comes from. */
    sources: z.array(z.number().int()).max(20).catch([]),
  }),
  z.object({
    op: z.literal('update'),
    /** The number of the known memory it corrects (`M3` → 3). */
    memory: z.number().int(),
    subject: z.enum(SUBJECTS),
    text: z.string().trim().min(1).max(MEMORY_TEXT_MAX),
    importance: z.number().int().min(1).max(5).catch(3),
    event_date: day,
    sources: z.array(z.number().int()).max(20).catch([]),
  }),
  z.object({ op: z.literal('forget'), memory: z.number().int(), sources: z.array(z.number().int()).max(20).catch([]) }),
]);
export type MemoryOp = z.infer<typeof MemoryOpSchema>;
export const MemoryOpsSchema = z.object({ operations: z.array(MemoryOpSchema).max(30) });

/** The same shape as a JSON schema both an OpenAI-compatible endpoint (strict) and node-llama-cpp's grammar accept. */
export const MEMORY_OPS_JSON_SCHEMA: Record<string, unknown> = {
  type: 'object',
  properties: {
    operations: {
      type: 'array',
      items: {
        type: 'object',
        properties: {
          op: { type: 'string', enum: ['add', 'update', 'forget'] },
          memory: { type: ['integer', 'null'] },
          kind: { type: ['string', 'null'], enum: [...MEMORY_KINDS, null] },
          subject: { type: ['string', 'null'], enum: [...SUBJECTS, null] },
          text: { type: ['string', 'null'] },
          importance: { type: ['integer', 'null'] },
          event_date: { type: ['string', 'null'] },
          sources: { type: 'array', items: { type: 'integer' } },
        },
        required: ['op', 'memory', 'kind', 'subject', 'text', 'importance', 'event_date', 'sources'],
        additionalProperties: false,
      },
    },
  },
  required: ['operations'],
  additionalProperties: false,
};

/**
 * The operations in the model's answer: each valid one kept, an invalid one dropped (one bad
 * operation does not lose the others); null when the answer is not a JSON object of operations.
 */
export function parseOps(answer: string): MemoryOp[] | null {
  const start = answer.indexOf('{');
  const end = answer.lastIndexOf('}');
  if (start < 0 || end <= start) return null;
  let value: unknown;
  try {
    value = JSON.parse(answer.slice(start, end + 1));
  } catch {
    return null;
  }
  const list = z.object({ operations: z.array(z.unknown()) }).safeParse(value);
  if (!list.success) return null;
  const ops: MemoryOp[] = [];
  for (const raw of list.data.operations.slice(0, 30)) {
    // The JSON schema's nulls for fields an operation has none of.
    const cleaned =
      raw && typeof raw === 'object'
        ? Object.fromEntries(Object.entries(raw).filter(([key, v]) => v !== null || key === 'event_date'))
        : raw;
    const op = MemoryOpSchema.safeParse(cleaned);
    if (op.success) ops.push(op.data);
  }
  return ops;
}

export interface ExtractionPromptInput {
  characterName: string;
  userName: string;
  locale: Locale;
  today: string;
  /** The new messages, numbered from 1. */
  messages: { role: 'user' | 'bot'; text: string }[];
  /** The known memories they may touch, numbered from 1. */
  known: { text: string; kind: string; eventDate: string | null }[];
}

/** The turns that ask the model for the operations. */
export function extractionPrompt(input: ExtractionPromptInput): ChatTurn[] {
  const { characterName: char, userName: user } = input;
  const system = [
    `You keep the long-term memory of ${char} (a fictional character) about ${user} (the user), as short records.`,
    'Read the new messages and answer with JSON operations:',
    `- "add" a lasting fact worth remembering: about ${user} (kind "user"), a shared event with its day if known (kind "event", event_date YYYY-MM-DD), the relationship between them ("relationship"), ${char}'s own life as told ("character"), or a preference for the story ("story"). One fact per record, one short sentence in the third person, naming ${user} and ${char} by name; importance 1 (trivia) to 5 (core: name, lasting relationships, big events).`,
    '- "update" a known memory (by its number M#) when a new message corrects or changes it: the newer statement wins; write the whole corrected text.',
    `- "forget" a known memory when ${user} asks to forget it or it is no longer true and nothing replaces it.`,
    '- Never add what is already known (update it instead if it changed), small talk, or what only happens in this moment.',
    '- Never record anything about a minor (anyone under 18), nor intimate details (sex, health, body, affairs) about anyone other than the two of them; set "subject" to "third_party" when a record is mainly about someone else.',
    '- "sources": the numbers of the messages a record comes from.',
    `Write the records in ${LANGUAGE_NAMES[input.locale]}, or in the language of the messages if they use another. Answer with the JSON object only: {"operations": [...]}; an empty list when nothing is worth remembering.`,
  ].join('\n');
  const known = input.known.length
    ? input.known.map((m, i) => `M${i + 1} [${m.kind}${m.eventDate ? `, ${m.eventDate}` : ''}] ${m.text}`).join('\n')
    : '(none)';
  const messages = input.messages
    .map((m, i) => `${i + 1}. ${m.role === 'user' ? user : char}: ${m.text.replace(/\s+/g, ' ').trim()}`)
    .join('\n');
  return [
    { role: 'system', content: system },
    { role: 'user', content: `Today: ${input.today}\n\nKnown memories:\n${known}\n\nNew messages:\n${messages}` },
  ];
}
