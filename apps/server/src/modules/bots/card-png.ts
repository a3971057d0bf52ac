import zlib from 'node:zlib';

/** A minimal PNG chunk reader and writer for Character Card tEXt chunks. */
const SIGNATURE = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);

export interface PngChunk {
  type: string;
  data: Buffer;
}

export const isPng = (buffer: Buffer) => buffer.length >= 8 && buffer.subarray(0, 8).equals(SIGNATURE);

/** Splits a PNG into its chunks; throws on a bad signature, a bad CRC or a truncated file. */
export function readPngChunks(buffer: Buffer): PngChunk[] {
  if (!isPng(buffer)) throw new Error('not a PNG');
  const chunks: PngChunk[] = [];
  let offset = 8;
  while (offset < buffer.length) {
    if (offset + 12 > buffer.length) throw new Error('truncated PNG');
    const length = buffer.readUInt32BE(offset);
    const type = buffer.toString('latin1', offset + 4, offset + 8);
    const end = offset + 12 + length;
    if (end > buffer.length) throw new Error('truncated PNG');
    const data = buffer.subarray(offset + 8, offset + 8 + length);
    const crc = buffer.readUInt32BE(offset + 8 + length);
    if (zlib.crc32(buffer.subarray(offset + 4, offset + 8 + length)) !== crc) throw new Error('bad PNG CRC');
    chunks.push({ type, data });
    offset = end;
    if (type === 'IEND') break;
  }
  return chunks;
}

export function writePng(chunks: PngChunk[]): Buffer {
  const parts: Buffer[] = [SIGNATURE];
  for (const chunk of chunks) {
    const head = Buffer.alloc(8);
    head.writeUInt32BE(chunk.data.length, 0);
    head.write(chunk.type, 4, 'latin1');
    const crc = Buffer.alloc(4);
    crc.writeUInt32BE(zlib.crc32(Buffer.concat([head.subarray(4), chunk.data])), 0);
    parts.push(head, chunk.data, crc);
  }
  return Buffer.concat(parts);
}

/** tEXt chunks as keyword → text (latin1, as the PNG specification defines). */
export function readTextChunks(buffer: Buffer): Map<string, string> {
  const texts = new Map<string, string>();
  for (const chunk of readPngChunks(buffer)) {
    if (chunk.type !== 'tEXt') continue;
    const zero = chunk.data.indexOf(0);
    if (zero <= 0) continue;
    texts.set(chunk.data.toString('latin1', 0, zero), chunk.data.toString('latin1', zero + 1));
  }
  return texts;
}

/**
 * Replaces the given tEXt chunks of a PNG (other tEXt chunks with those keywords are
 * removed), inserting them before IEND.
 */
export function withTextChunks(png: Buffer, texts: Record<string, string>): Buffer {
  const keywords = new Set(Object.keys(texts));
  const chunks = readPngChunks(png).filter((chunk) => {
    if (chunk.type !== 'tEXt') return true;
    const zero = chunk.data.indexOf(0);
    return !keywords.has(chunk.data.toString('latin1', 0, zero));
  });
  const iend = chunks.findIndex((c) => c.type === 'IEND');
  const added = Object.entries(texts).map(([keyword, text]) => ({
    type: 'tEXt',
    data: Buffer.concat([Buffer.from(keyword, 'latin1'), Buffer.from([0]), Buffer.from(text, 'latin1')]),
  }));
  chunks.splice(iend < 0 ? chunks.length : iend, 0, ...added);
  return writePng(chunks);
}
