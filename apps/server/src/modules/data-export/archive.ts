import fs from 'node:fs';
import { once } from 'node:events';
import { finished } from 'node:stream/promises';
import { strToU8, Zip, ZipDeflate, ZipPassThrough } from 'fflate';

/**
 * A ZIP written to a file as it is built (fflate's streaming `Zip`): one entry at a time, each
 * pushed in chunks, waiting for the file to drain between them — memory stays bounded by a
 * chunk however large the archive. Text entries are deflated; media (already compressed) are
 * stored as they are.
 */
export class ZipFileWriter {
  private readonly zip: Zip;
  private readonly out: fs.WriteStream;
  private error: Error | null = null;
  private bytes = 0;

  constructor(file: string) {
    this.out = fs.createWriteStream(file, { flags: 'wx', mode: 0o600 });
    this.out.on('error', (error) => (this.error ??= error));
    this.zip = new Zip((error, chunk, final) => {
      if (error) {
        this.error ??= error;
        return;
      }
      this.bytes += chunk.length;
      this.out.write(chunk);
      if (final) this.out.end();
    });
  }

  private async drain(signal?: AbortSignal): Promise<void> {
    if (this.error) throw this.error;
    signal?.throwIfAborted();
    if (this.out.writableNeedDrain) await once(this.out, 'drain', { signal });
    if (this.error) throw this.error;
  }

  /** A whole text entry (small: a JSON document, a README). */
  async text(name: string, text: string, signal?: AbortSignal): Promise<void> {
    const entry = new ZipDeflate(name, { level: 6 });
    this.zip.add(entry);
    entry.push(strToU8(text), true);
    await this.drain(signal);
  }

  /** An entry from chunks (a long chat's lines, a file read from storage). */
  async stream(
    name: string,
    chunks: AsyncIterable<string | Uint8Array>,
    options: { compress: boolean; signal?: AbortSignal },
  ): Promise<void> {
    const entry = options.compress ? new ZipDeflate(name, { level: 6 }) : new ZipPassThrough(name);
    this.zip.add(entry);
    try {
      for await (const chunk of chunks) {
        entry.push(typeof chunk === 'string' ? strToU8(chunk) : chunk, false);
        await this.drain(options.signal);
      }
    } finally {
      // An entry is always closed, so that the archive's next entry (or its end) can follow.
      entry.push(new Uint8Array(0), true);
    }
    await this.drain(options.signal);
  }

  /** Ends the archive; its size in bytes. */
  async finish(): Promise<number> {
    this.zip.end();
    await finished(this.out);
    if (this.error) throw this.error;
    return this.bytes;
  }

  /** Stops writing (a failed build): the file is left for the caller to remove. */
  async abort(): Promise<void> {
    this.zip.terminate();
    if (!this.out.closed) {
      this.out.destroy();
      await once(this.out, 'close').catch(() => undefined);
    }
  }
}
