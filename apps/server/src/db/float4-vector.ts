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

/** The floats of a stored vector: bytes (postgres.js gives a Buffer, PGlite a Uint8Array) or bytea's hex text. */
export function decodeFloat4Vector(value: Uint8Array | string): number[] {
  const bytes = typeof value === 'string' ? Buffer.from(value.replace(/^\\x/, ''), 'hex') : value;
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const out = new Array<number>(bytes.byteLength >> 2);
  for (let i = 0; i < out.length; i++) out[i] = view.getFloat32(i * 4);
  return out;
}
