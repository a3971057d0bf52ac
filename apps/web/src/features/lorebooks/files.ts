/** Reads a picked JSON file (a World Info file or a card's book); null when it is not a JSON object. */
export async function readJsonFile(file: File): Promise<Record<string, unknown> | null> {
  try {
    const value: unknown = JSON.parse(await file.text());
    return value && typeof value === 'object' && !Array.isArray(value) ? (value as Record<string, unknown>) : null;
  } catch {
    return null;
  }
}

/** Offers `data` as a JSON file download. */
export function downloadJson(data: unknown, name: string): void {
  const url = URL.createObjectURL(new Blob([JSON.stringify(data, null, 2)], { type: 'application/json' }));
  const link = document.createElement('a');
  link.href = url;
  link.download = name;
  document.body.append(link);
  link.click();
  link.remove();
  setTimeout(() => URL.revokeObjectURL(url), 1000);
}

/** A file name's stem, for a book's name ("vell.json" → "vell"). */
export const fileStem = (name: string) => name.replace(/\.[^.]+$/, '').slice(0, 100);

const record = (value: unknown): Record<string, unknown> | null =>
  value && typeof value === 'object' && !Array.isArray(value) ? (value as Record<string, unknown>) : null;

/**
 * What went wrong with an imported file, for its author: the first entry that breaks a rule by
 * its number in the file (1-based) and its title ("Entry 3 “Reef”: This text is too long"),
 * else the server's message. The server names an entry `entries.<place>.…` (its checks of the
 * entries) or `data.entries.<key>.…` (the file's own key, for a character that is not allowed).
 */
export function importErrorText(
  error: { message: string; fieldErrors: Record<string, string[]> },
  data: Record<string, unknown>,
  t: (key: string, options?: Record<string, unknown>) => string,
): string {
  const book = record(record(data.data)?.character_book) ?? data;
  const list = Array.isArray(book.entries) ? (book.entries as unknown[]) : null;
  const byKey = record(book.entries);
  for (const [path, messages] of Object.entries(error.fieldErrors)) {
    const found = /^(data\.)?entries\.([^.]+)/.exec(path);
    if (!found) continue;
    const place = found[2]!;
    let index = Number(place);
    if (found[1] && byKey) index = Object.keys(byKey).indexOf(place);
    if (!Number.isInteger(index) || index < 0) continue;
    const raw = record(list ? list[index] : byKey ? Object.values(byKey)[index] : null);
    const keys = raw?.key ?? raw?.keys;
    const firstKey = Array.isArray(keys) && typeof keys[0] === 'string' ? keys[0] : '';
    const title = ((typeof raw?.comment === 'string' ? raw.comment : '') || firstKey).trim();
    const message = messages[0] ?? '';
    return title
      ? t('lorebooks.import_entry_error_titled', { number: index + 1, title, message })
      : t('lorebooks.import_entry_error', { number: index + 1, message });
  }
  return error.message;
}

/** What an import did: the entries written, and the ones without text it left out, if any. */
export function importedText(
  result: { imported_entries: number; skipped_entries: number },
  t: (key: string, options?: Record<string, unknown>) => string,
): string {
  const imported = t('lorebooks.imported', { count: result.imported_entries });
  return result.skipped_entries > 0
    ? `${imported}. ${t('lorebooks.skipped_empty', { count: result.skipped_entries })}`
    : imported;
}
