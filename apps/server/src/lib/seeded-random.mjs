// A small seeded generator, in plain JavaScript so that the style engine's worker thread
// (modules/transforms/styles/cel.mjs) and the server's TypeScript share it; `build.mjs`
// bundles the cel worker with it.

/** Numbers in [0, 1) from a 32-bit seed (mulberry32): the same seed always draws the same. */
export function mulberry32(seed) {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}
