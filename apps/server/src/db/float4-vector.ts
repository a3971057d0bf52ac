import { customType } from 'drizzle-orm/pg-core';

/**
 * A vector of 32-bit floats stored as `bytea`, four bytes each in network order (PostgreSQL's
 * `float4send`): read back with a view over the bytes, where a `real[]` came as text that had
 * to be parsed number by number (docs/memory.md "Embeddings").
 */
export const float4Vector = customType<{ data: number[]; driverData: Uint8Array }>({
  dataType: () => 'bytea',
  toDriver: (value) => encodeFloat4Vector(value),
  fromDriver: (value) => decodeFloat4Vector(value),
});

export function encodeFloat4Vector(value: readonly number[]): Buffer {
  const bytes = Buffer.allocUnsafe(value.length * 4);
  for (let i = 0; i < value.length; i++) bytes.writeFloatBE(value[i]!, i * 4);
  return bytes;
}

/**
 * The floats of a stored vector: bytes (postgres.js gives a Buffer, PGlite a Uint8Array),
 * bytea's hex text (`\\x…`), or base64 text as `encode(vector, 'base64')` writes it (its line
 * breaks are skipped).
 */
export function decodeFloat4Vector(value: Uint8Array | string): number[] {
  const bytes =
    typeof value !== 'string'
      ? value
      : value.startsWith('\\x')
        ? Buffer.from(value.slice(2), 'hex')
        : Buffer.from(value, 'base64');
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const out = new Array<number>(bytes.byteLength >> 2);
  for (let i = 0; i < out.length; i++) out[i] = view.getFloat32(i * 4);
  return out;
}

/** A vector as a statement returns it (base64 or hex text, or bytes) or as numbers. */
export type VectorValue = readonly number[] | Uint8Array | string;

/** The bytes of a stored vector are decoded here, one at a time (grown when a larger one comes). */
let scratch = Buffer.alloc(4096);
let scratchView = new DataView(scratch.buffer, scratch.byteOffset, scratch.byteLength);

/**
 * Cosine similarity with `query`, of vectors given as numbers or as read from the database —
 * the stored ones compared straight from their bytes, with no array made per vector (a prompt
 * compares up to ≈ 500 of them: bench/README.md "Memory vectors as base64").
 */
export function cosineTo(query: readonly number[]): (vector: VectorValue) => number {
  return (vector) => {
    let dot = 0;
    let qq = 0;
    let vv = 0;
    if (typeof vector === 'string' || vector instanceof Uint8Array) {
      let view: DataView;
      let size: number;
      if (typeof vector === 'string') {
        if (scratch.byteLength < vector.length) {
          scratch = Buffer.alloc(vector.length);
          scratchView = new DataView(scratch.buffer, scratch.byteOffset, scratch.byteLength);
        }
        size = vector.startsWith('\\x') ? scratch.write(vector.slice(2), 'hex') : scratch.write(vector, 'base64');
        view = scratchView;
      } else {
        size = vector.byteLength;
        view = new DataView(vector.buffer, vector.byteOffset, vector.byteLength);
      }
      const n = Math.min(query.length, size >> 2);
      for (let i = 0; i < n; i++) {
        const q = query[i]!;
        const v = view.getFloat32(i * 4);
        dot += q * v;
        qq += q * q;
        vv += v * v;
      }
    } else {
      const n = Math.min(query.length, vector.length);
      for (let i = 0; i < n; i++) {
        const q = query[i]!;
        const v = vector[i]!;
        dot += q * v;
        qq += q * q;
        vv += v * v;
      }
    }
    return qq && vv ? dot / Math.sqrt(qq * vv) : 0;
  };
}
