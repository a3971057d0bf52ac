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
