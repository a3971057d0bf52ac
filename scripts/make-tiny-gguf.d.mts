/** Types of make-tiny-gguf.mjs (a plain Node script, so that it runs without a build). */
export declare function makeTinyGguf(options?: { seed?: number }): Buffer;
export declare function writeTinyGguf(file: string, options?: { seed?: number }): string;
