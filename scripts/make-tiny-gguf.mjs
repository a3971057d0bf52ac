#!/usr/bin/env node
/**
 * Writes a tiny llama-architecture GGUF model (≈ 470 KB) that node-llama-cpp loads and runs:
 * 2 blocks, 64-wide embeddings, a byte-level vocabulary of 260 tokens, F32 weights drawn
 * from a seeded generator (the same bytes every time for the same seed), and a ChatML chat
 * template. It answers gibberish, but through the real engine: tests of the local LLM
 * provider use it so that they need no download.
 *
 *   node scripts/make-tiny-gguf.mjs path/to/tiny.gguf [seed]
 *
 * Plain Node, no dependencies. Format: GGUF version 3, little-endian, alignment 32.
 */
import fs from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';

const ALIGNMENT = 32;
const EMBEDDING = 64;
const FEED_FORWARD = 128;
const BLOCKS = 2;
const HEADS = 4;
const VOCAB = 260;
/** A ChatML template, so that node-llama-cpp picks its ChatML wrapper. */
const CHAT_TEMPLATE =
  "{% for message in messages %}{{ '<|im_start|>' + message['role'] + '\\n' + message['content'] + '<|im_end|>' + '\\n' }}{% endfor %}" +
  "{% if add_generation_prompt %}{{ '<|im_start|>assistant\\n' }}{% endif %}";

// GGUF metadata value types.
const T = { UINT32: 4, INT32: 5, FLOAT32: 6, BOOL: 7, STRING: 8, ARRAY: 9 };
const GGML_TYPE_F32 = 0;

/** A growable little-endian byte writer. */
class Writer {
  constructor() {
    this.buffer = Buffer.alloc(1 << 16);
    this.length = 0;
  }
  reserve(bytes) {
    if (this.length + bytes <= this.buffer.length) return;
    let size = this.buffer.length * 2;
    while (size < this.length + bytes) size *= 2;
    const next = Buffer.alloc(size);
    this.buffer.copy(next, 0, 0, this.length);
    this.buffer = next;
  }
  u32(value) {
    this.reserve(4);
    this.buffer.writeUInt32LE(value, this.length);
    this.length += 4;
  }
  i32(value) {
    this.reserve(4);
    this.buffer.writeInt32LE(value, this.length);
    this.length += 4;
  }
  u64(value) {
    this.reserve(8);
    this.buffer.writeBigUInt64LE(BigInt(value), this.length);
    this.length += 8;
  }
  f32(value) {
    this.reserve(4);
    this.buffer.writeFloatLE(value, this.length);
    this.length += 4;
  }
  u8(value) {
    this.reserve(1);
    this.buffer.writeUInt8(value, this.length);
    this.length += 1;
  }
  bytes(data) {
    this.reserve(data.length);
    this.buffer.set(data, this.length);
    this.length += data.length;
  }
  string(text) {
    const data = Buffer.from(text, 'utf8');
    this.u64(data.length);
    this.bytes(data);
  }
  pad(alignment) {
    const rest = this.length % alignment;
    if (rest) this.bytes(new Uint8Array(alignment - rest));
  }
  result() {
    return this.buffer.subarray(0, this.length);
  }
}

/** mulberry32: a small seeded 32-bit generator, uniform in [0, 1). */
function uniform(seed) {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** Standard normal numbers (Box–Muller) from the seeded generator. */
function gaussian(seed) {
  const next = uniform(seed);
  return () => {
    const u = Math.max(next(), 1e-12);
    const v = next();
    return Math.sqrt(-2 * Math.log(u)) * Math.cos(2 * Math.PI * v);
  };
}

/** The vocabulary: `<unk>`, `<s>`, `</s>`, the 256 byte tokens, then "▁". */
function vocabulary() {
  const tokens = ['<unk>', '<s>', '</s>'];
  const types = [2, 3, 3]; // unknown, control, control
  for (let byte = 0; byte < 256; byte++) {
    tokens.push(`<0x${byte.toString(16).toUpperCase().padStart(2, '0')}>`);
    types.push(6); // byte
  }
  tokens.push('\u2581');
  types.push(1); // normal
  return { tokens, types };
}

/** The tensors in file order: name, dimensions (innermost first), and how to fill them. */
function tensorPlan() {
  const plan = [
    { name: 'token_embd.weight', dims: [EMBEDDING, VOCAB], fill: 'noise' },
    { name: 'output_norm.weight', dims: [EMBEDDING], fill: 'ones' },
    { name: 'output.weight', dims: [EMBEDDING, VOCAB], fill: 'output' },
  ];
  for (let block = 0; block < BLOCKS; block++) {
    const p = `blk.${block}.`;
    plan.push(
      { name: `${p}attn_norm.weight`, dims: [EMBEDDING], fill: 'ones' },
      { name: `${p}attn_q.weight`, dims: [EMBEDDING, EMBEDDING], fill: 'noise' },
      { name: `${p}attn_k.weight`, dims: [EMBEDDING, EMBEDDING], fill: 'noise' },
      { name: `${p}attn_v.weight`, dims: [EMBEDDING, EMBEDDING], fill: 'noise' },
      { name: `${p}attn_output.weight`, dims: [EMBEDDING, EMBEDDING], fill: 'noise' },
      { name: `${p}ffn_norm.weight`, dims: [EMBEDDING], fill: 'ones' },
      { name: `${p}ffn_gate.weight`, dims: [EMBEDDING, FEED_FORWARD], fill: 'noise' },
      { name: `${p}ffn_down.weight`, dims: [FEED_FORWARD, EMBEDDING], fill: 'noise' },
      { name: `${p}ffn_up.weight`, dims: [EMBEDDING, FEED_FORWARD], fill: 'noise' },
    );
  }
  return plan;
}

/**
 * The model file's bytes. The same seed gives the same bytes.
 * @param {{ seed?: number }} [options]
 * @returns {Buffer}
 */
export function makeTinyGguf(options = {}) {
  const noise = gaussian(options.seed ?? 42);
  const { tokens, types } = vocabulary();
  const metadata = [
    ['general.architecture', T.STRING, 'llama'],
    ['general.name', T.STRING, 'reverie-tiny-test-model'],
    ['general.alignment', T.UINT32, ALIGNMENT],
    ['llama.context_length', T.UINT32, 2048],
    ['llama.embedding_length', T.UINT32, EMBEDDING],
    ['llama.block_count', T.UINT32, BLOCKS],
    ['llama.feed_forward_length', T.UINT32, FEED_FORWARD],
    ['llama.attention.head_count', T.UINT32, HEADS],
    ['llama.attention.head_count_kv', T.UINT32, HEADS],
    ['llama.attention.layer_norm_rms_epsilon', T.FLOAT32, 1e-5],
    ['llama.rope.dimension_count', T.UINT32, EMBEDDING / HEADS],
    ['llama.rope.freq_base', T.FLOAT32, 10000],
    ['llama.vocab_size', T.UINT32, VOCAB],
    ['tokenizer.ggml.model', T.STRING, 'llama'],
    ['tokenizer.ggml.tokens', T.ARRAY, { type: T.STRING, values: tokens }],
    ['tokenizer.ggml.scores', T.ARRAY, { type: T.FLOAT32, values: tokens.map(() => 0) }],
    ['tokenizer.ggml.token_type', T.ARRAY, { type: T.INT32, values: types }],
    ['tokenizer.ggml.bos_token_id', T.UINT32, 1],
    ['tokenizer.ggml.eos_token_id', T.UINT32, 2],
    ['tokenizer.ggml.unknown_token_id', T.UINT32, 0],
    ['tokenizer.ggml.add_bos_token', T.BOOL, true],
    ['tokenizer.chat_template', T.STRING, CHAT_TEMPLATE],
  ];
  const plan = tensorPlan();

  const out = new Writer();
  out.bytes(Buffer.from('GGUF', 'ascii'));
  out.u32(3);
  out.u64(plan.length);
  out.u64(metadata.length);

  const writeValue = (type, value) => {
    if (type === T.UINT32) out.u32(value);
    else if (type === T.INT32) out.i32(value);
    else if (type === T.FLOAT32) out.f32(value);
    else if (type === T.BOOL) out.u8(value ? 1 : 0);
    else if (type === T.STRING) out.string(value);
    else throw new Error(`unsupported metadata type ${type}`);
  };
  for (const [key, type, value] of metadata) {
    out.string(key);
    out.u32(type);
    if (type === T.ARRAY) {
      out.u32(value.type);
      out.u64(value.values.length);
      for (const item of value.values) writeValue(value.type, item);
    } else {
      writeValue(type, value);
    }
  }

  // Tensor infos: offsets are relative to the (aligned) start of the data section.
  let offset = 0;
  const sizes = plan.map((tensor) => tensor.dims.reduce((a, b) => a * b, 1) * 4);
  plan.forEach((tensor, index) => {
    out.string(tensor.name);
    out.u32(tensor.dims.length);
    for (const dim of tensor.dims) out.u64(dim);
    out.u32(GGML_TYPE_F32);
    out.u64(offset);
    offset += Math.ceil(sizes[index] / ALIGNMENT) * ALIGNMENT;
  });
  out.pad(ALIGNMENT);

  for (const tensor of plan) {
    const count = tensor.dims.reduce((a, b) => a * b, 1);
    const values = new Float32Array(count);
    if (tensor.fill === 'ones') values.fill(1);
    else for (let i = 0; i < count; i++) values[i] = noise() * 0.2;
    // The rows of <unk>, <s> and </s> in the output projection stay zero: otherwise a prompt
    // that ends in a newline (every ChatML prompt) may be answered by an immediate </s>.
    if (tensor.fill === 'output') values.fill(0, 0, 3 * EMBEDDING);
    out.bytes(new Uint8Array(values.buffer));
    out.pad(ALIGNMENT);
  }
  return out.result();
}

/**
 * Writes the model to `file` (folders created) and returns the absolute path.
 * @param {string} file
 * @param {{ seed?: number }} [options]
 * @returns {string}
 */
export function writeTinyGguf(file, options = {}) {
  const target = path.resolve(file);
  fs.mkdirSync(path.dirname(target), { recursive: true });
  fs.writeFileSync(target, makeTinyGguf(options));
  return target;
}

if (process.argv[1] && import.meta.url === pathToFileURL(path.resolve(process.argv[1])).href) {
  const [file, seed] = process.argv.slice(2);
  if (!file) {
    console.error('usage: node scripts/make-tiny-gguf.mjs <output.gguf> [seed]');
    process.exit(2);
  }
  const written = writeTinyGguf(file, seed === undefined ? {} : { seed: Number(seed) });
  console.log(`wrote ${written} (${fs.statSync(written).size} bytes)`);
}
