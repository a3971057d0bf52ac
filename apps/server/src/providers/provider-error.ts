/** A provider's failure, never an untyped throw: a stable code, a message for the log, the provider's name. */
export class ProviderError<Code extends string> extends Error {
  constructor(
    readonly code: Code,
    message: string,
    readonly provider: string,
    options?: { cause?: unknown },
  ) {
    super(message, options);
  }
}
