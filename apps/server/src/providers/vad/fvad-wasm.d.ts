/** @echogarden/fvad-wasm ships no types: its default export instantiates the Emscripten module. */
declare module '@echogarden/fvad-wasm' {
  const factory: () => Promise<unknown>;
  export default factory;
}
