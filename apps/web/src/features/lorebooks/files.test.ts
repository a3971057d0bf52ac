import { describe, expect, it } from 'vitest';
import { importedText } from './files';

const t = (key: string, options?: Record<string, unknown>) => `${key}(${String(options?.count)})`;

describe('importedText', () => {
  it('says how many entries were imported, and the ones without text left out when there are any', () => {
    expect(importedText({ imported_entries: 3, skipped_entries: 0 }, t)).toBe('lorebooks.imported(3)');
    expect(importedText({ imported_entries: 1, skipped_entries: 2 }, t)).toBe(
      'lorebooks.imported(1). lorebooks.skipped_empty(2)',
    );
  });
});
