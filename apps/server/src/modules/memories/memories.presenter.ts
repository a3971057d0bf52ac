import type { JournalEntry, Memory, MemoryHistoryEntry } from '@reverie/shared';
import type { JournalRow, MemoryRevisionRow, ShownMemory } from './memories.repository.js';

export function presentMemory(row: ShownMemory): Memory {
  return {
    id: row.id,
    bot_id: row.botId,
    kind: row.kind,
    text: row.text,
    event_date: row.eventDate,
    importance: row.importance,
    pinned: row.pinned,
    origin: row.origin,
    source_message_ids: row.sourceMessageIds,
    created_at: row.createdAt.toISOString(),
    updated_at: row.updatedAt.toISOString(),
  };
}

export function presentRevision(row: MemoryRevisionRow): MemoryHistoryEntry {
  return {
    id: row.id,
    memory_id: row.memoryId,
    change: row.change,
    origin: row.origin,
    kind: row.kind,
    text: row.text,
    event_date: row.eventDate,
    importance: row.importance,
    pinned: row.pinned,
    source_message_ids: row.sourceMessageIds,
    created_at: row.createdAt.toISOString(),
  };
}

export function presentJournalEntry(row: JournalRow): JournalEntry {
  return {
    id: row.id,
    bot_id: row.botId,
    day: row.day,
    text: row.text,
    memory_ids: row.memoryIds,
    created_at: row.createdAt.toISOString(),
  };
}
