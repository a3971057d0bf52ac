/** The AudioWorkletGlobalScope names the worklets use (TypeScript's DOM library does not declare them). */
declare const sampleRate: number;
declare function registerProcessor(
  name: string,
  processor: new (options?: { processorOptions?: unknown }) => AudioWorkletProcessorBase,
): void;
declare class AudioWorkletProcessorBase {
  readonly port: MessagePort;
  process(inputs: Float32Array[][], outputs: Float32Array[][]): boolean;
}
