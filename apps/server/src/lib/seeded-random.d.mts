/** Types of seeded-random.mjs (plain JavaScript, shared with the cel worker thread). */
export declare function mulberry32(seed: number): () => number;
