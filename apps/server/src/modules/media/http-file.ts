import type { ByteRange, MediaFileInfo } from '../../providers/storage/storage.js';

/**
 * HTTP semantics of a served file (RFC 9110): conditional requests and byte ranges, pure
 * functions of the request's headers and the file's size and validators.
 */

/** `W/"x"` and `"x"` are the same for the weak comparison `If-None-Match` uses. */
const opaque = (tag: string) => tag.trim().replace(/^W\//, '');

/** The ETags of an `If-None-Match`/`If-Match` list (`*` matches any). */
function tagList(header: string): string[] {
  return header.match(/(?:W\/)?"[^"]*"|\*/g) ?? [];
}

/**
 * True when the client's copy is current: `If-None-Match` lists the file's ETag (weak
 * comparison), or — only without `If-None-Match` — `If-Modified-Since` is not before the
 * file's last change (HTTP dates have whole seconds).
 */
export function isNotModified(
  headers: { 'if-none-match'?: string; 'if-modified-since'?: string },
  file: Pick<MediaFileInfo, 'etag' | 'lastModified'>,
): boolean {
  const noneMatch = headers['if-none-match'];
  if (noneMatch !== undefined) {
    const tags = tagList(noneMatch);
    return tags.some((tag) => tag === '*' || opaque(tag) === opaque(file.etag));
  }
  const since = headers['if-modified-since'];
  if (!since) return false;
  const date = Date.parse(since);
  if (Number.isNaN(date)) return false;
  return Math.floor(file.lastModified.getTime() / 1000) <= Math.floor(date / 1000);
}

export type RangeAnswer = { kind: 'whole' } | { kind: 'partial'; range: ByteRange } | { kind: 'unsatisfiable' };

/**
 * What a `Range` header asks of a file of `size` bytes. One range of bytes (`a-b`, `a-`,
 * `-n`) is served as 206; a header that is not a valid bytes range, or asks for several
 * ranges, is ignored (the whole file, 200 — allowed by RFC 9110 §14.2); a range that starts
 * past the end (or a suffix of 0 bytes) is unsatisfiable (416). An `If-Range` that names
 * another version (not the strong ETag, or a date other than the last change) gets the
 * whole file.
 */
export function rangeOf(
  headers: { range?: string; 'if-range'?: string },
  file: Pick<MediaFileInfo, 'size' | 'etag' | 'lastModified'>,
): RangeAnswer {
  const header = headers.range;
  if (!header) return { kind: 'whole' };
  const ifRange = headers['if-range']?.trim();
  if (ifRange) {
    const current = ifRange.startsWith('"')
      ? !file.etag.startsWith('W/') && ifRange === file.etag
      : Math.floor(file.lastModified.getTime() / 1000) === Math.floor(Date.parse(ifRange) / 1000);
    if (!current) return { kind: 'whole' };
  }
  const match = /^\s*bytes\s*=\s*(\d*)\s*-\s*(\d*)\s*$/i.exec(header);
  if (!match || (match[1] === '' && match[2] === '')) return { kind: 'whole' };
  const { size } = file;
  if (match[1] === '') {
    // The last n bytes.
    const suffix = Number(match[2]);
    if (!Number.isSafeInteger(suffix)) return { kind: 'whole' };
    if (suffix === 0 || size === 0) return { kind: 'unsatisfiable' };
    return { kind: 'partial', range: { start: Math.max(0, size - suffix), end: size - 1 } };
  }
  const start = Number(match[1]);
  const end = match[2] === '' ? size - 1 : Number(match[2]);
  if (!Number.isSafeInteger(start) || !Number.isSafeInteger(end)) return { kind: 'whole' };
  if (start >= size) return { kind: 'unsatisfiable' };
  if (end < start) return { kind: 'whole' };
  return { kind: 'partial', range: { start, end: Math.min(end, size - 1) } };
}
