/** The verdict of a moderation check. */
export interface ModerationVerdict {
  flagged: boolean;
  /** Why, for logs and the review queue (never shown to the user). */
  reason?: string;
  /** The categories the provider flagged (an OpenAI-compatible endpoint's names, e.g. `sexual/minors`). */
  categories?: string[];
}

/**
 * Checks user content before it is published. Chosen by config (MODERATION_PROVIDER):
 * the built-in rules, or an OpenAI-compatible moderation endpoint.
 */
export interface ModerationProvider {
  readonly name: string;
  /** True when the provider judges content well enough to auto-approve public characters. */
  readonly canAutoApprove: boolean;
  checkText(text: string): Promise<ModerationVerdict>;
  /** A PNG or WebP picture (already re-encoded). */
  checkImage(image: Buffer, contentType: string): Promise<ModerationVerdict>;
}
