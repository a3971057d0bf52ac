import fs from 'node:fs/promises';
import path from 'node:path';
import type { Readable } from 'node:stream';
import { contentTypeOf, isValidMediaKey, type ByteRange, type MediaFileInfo, type MediaStorage } from './storage.js';

/** Media as files under `${DATA_DIR}/media`. */
export class LocalMediaStorage implements MediaStorage {
  constructor(private readonly root: string) {}

  private file(key: string): string {
    if (!isValidMediaKey(key)) throw new Error(`invalid media key: ${key}`);
    return path.join(this.root, ...key.split('/'));
  }

  /** Writes the key's file whole or not at all: into a temporary file, then renamed over it. */
  private async replace(key: string, writeTemp: (temp: string) => Promise<void>): Promise<void> {
    const file = this.file(key);
    await fs.mkdir(path.dirname(file), { recursive: true });
    const temp = `${file}.${process.pid}.${Date.now()}.tmp`;
    await writeTemp(temp);
    await fs.rename(temp, file);
  }

  put(key: string, data: Buffer): Promise<void> {
    return this.replace(key, (temp) => fs.writeFile(temp, data));
  }

  putFile(key: string, filePath: string): Promise<void> {
    return this.replace(key, (temp) => fs.copyFile(filePath, temp));
  }

  async get(key: string): Promise<{ data: Buffer; contentType: string } | null> {
    try {
      const data = await fs.readFile(this.file(key));
      return { data, contentType: contentTypeOf(key) };
    } catch {
      return null;
    }
  }

  async stat(key: string): Promise<MediaFileInfo | null> {
    const file = this.file(key);
    const stats = await fs.stat(file).catch(() => null);
    if (!stats?.isFile()) return null;
    // Files are replaced whole (written aside, then renamed): size and modification time
    // (microseconds) identify a version.
    const etag = `"${stats.size.toString(16)}-${Math.round(stats.mtimeMs * 1000).toString(16)}"`;
    return { size: stats.size, contentType: contentTypeOf(key), etag, lastModified: stats.mtime };
  }

  async stream(key: string, range?: ByteRange): Promise<Readable | null> {
    // Opened before answering, so a file deleted meanwhile is a 404, not a broken stream; the
    // stream closes the handle when it ends or is destroyed (the client went away).
    const handle = await fs.open(this.file(key), 'r').catch(() => null);
    if (!handle) return null;
    return handle.createReadStream({ start: range?.start, end: range?.end, autoClose: true });
  }

  async exists(key: string): Promise<boolean> {
    return fs.access(this.file(key)).then(
      () => true,
      () => false,
    );
  }

  async delete(key: string): Promise<void> {
    await fs.rm(this.file(key), { force: true });
  }

  async deletePrefix(prefix: string): Promise<void> {
    await fs.rm(this.file(prefix.replace(/\/+$/, '')), { recursive: true, force: true });
  }
}
