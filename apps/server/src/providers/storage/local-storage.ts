import fs from 'node:fs/promises';
import path from 'node:path';
import { CONTENT_TYPE_BY_EXTENSION, isValidMediaKey, type MediaStorage } from './storage.js';

/** Media as files under `${DATA_DIR}/media`. */
export class LocalMediaStorage implements MediaStorage {
  constructor(private readonly root: string) {}

  private file(key: string): string {
    if (!isValidMediaKey(key)) throw new Error(`invalid media key: ${key}`);
    return path.join(this.root, ...key.split('/'));
  }

  async put(key: string, data: Buffer): Promise<void> {
    const file = this.file(key);
    await fs.mkdir(path.dirname(file), { recursive: true });
    const temp = `${file}.${process.pid}.${Date.now()}.tmp`;
    await fs.writeFile(temp, data);
    await fs.rename(temp, file);
  }

  async get(key: string): Promise<{ data: Buffer; contentType: string } | null> {
    try {
      const data = await fs.readFile(this.file(key));
      const ext = key.split('.').pop()?.toLowerCase() ?? '';
      return { data, contentType: CONTENT_TYPE_BY_EXTENSION[ext] ?? 'application/octet-stream' };
    } catch {
      return null;
    }
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
