/** The AudioWorkletGlobalScope names the worklets (capture.worklet.ts, playback.worklet.ts) use; TypeScript's DOM library lacks them. Only worklet code may use them. */
declare const sampleRate: number;
declare function registerProcessor(
  name: string,
  processor: new (options?: { processorOptions?: unknown }) => AudioWorkletProcessorBase,
): void;
declare class AudioWorkletProcessorBase {
  readonly port: MessagePort;
  process(inputs: Float32Array[][], outputs: Float32Array[][]): boolean;
}
