/** The part of the espeak-ng WebAssembly build this server uses (the package ships no types). */
declare module '@echogarden/espeak-ng-emscripten' {
  interface EspeakNgWorker {
    /** 0 on success. */
    set_voice(name: string): number;
    /** Calls back with PCM (22 050 Hz, mono, int16) as it is produced; return false to go on. */
    synthesize(text: string, callback: (samples: Int16Array, events: unknown[]) => boolean): void;
  }
  const createModule: () => Promise<{ eSpeakNGWorker: new () => EspeakNgWorker }>;
  export default createModule;
}
