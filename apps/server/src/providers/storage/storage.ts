import type { Readable } from 'node:stream';

/** What the media route needs to answer with validators and ranges, before reading a byte. */
export interface MediaFileInfo {
  size: number;
  contentType: string;
  /** A strong validator of this version of the file, quoted (`"…"`), for `ETag`. */
  etag: string;
  lastModified: Date;
}

/** Bytes `start`…`end` of a file, both included (HTTP's `Range: bytes=start-end`). */
export interface ByteRange {
  start: number;
  end: number;
}

/**
 * Where media files (character pictures, uploads) live. Local files by default; an
 * S3-compatible store can implement the same interface.
 */
export interface MediaStorage {
  put(key: string, data: Buffer, contentType: string): Promise<void>;
  /** Stores a file from disk, streamed (a large archive never whole in memory). */
  putFile(key: string, filePath: string, contentType: string): Promise<void>;
  /** The file and its type, or null when it does not exist. */
  get(key: string): Promise<{ data: Buffer; contentType: string } | null>;
  /** Size, type and validators of a file, or null when it does not exist. */
  stat(key: string): Promise<MediaFileInfo | null>;
  /**
   * The file (or the range of it) as a stream, read as it is sent — never whole into memory;
   * null when it does not exist (any more).
   */
  stream(key: string, range?: ByteRange): Promise<Readable | null>;
  exists(key: string): Promise<boolean>;
  delete(key: string): Promise<void>;
  /** Deletes every file whose key starts with `prefix/` (a character's pictures, a user's uploads). */
  deletePrefix(prefix: string): Promise<void>;
}

/** Media keys are relative paths of safe segments: `bots/<id>/avatar.png`. */
export const MEDIA_KEY_PATTERN = /^[a-z0-9][a-z0-9_-]*(?:\/[a-z0-9][a-z0-9_.-]*)*$/i;

export function isValidMediaKey(key: string): boolean {
  return key.length <= 300 && MEDIA_KEY_PATTERN.test(key) && !key.includes('..');
}

export const CONTENT_TYPE_BY_EXTENSION: Record<string, string> = {
  png: 'image/png',
  webp: 'image/webp',
  jpg: 'image/jpeg',
  jpeg: 'image/jpeg',
  mp3: 'audio/mpeg',
  zip: 'application/zip',
};

/** The type a key's extension names; `fallback` for an unknown one. */
export function contentTypeOf(key: string, fallback = 'application/octet-stream'): string {
  return CONTENT_TYPE_BY_EXTENSION[key.split('.').pop()?.toLowerCase() ?? ''] ?? fallback;
}
