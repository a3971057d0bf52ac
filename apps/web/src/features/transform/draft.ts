import { TRANSFORM_STYLES, type TransformStyle } from '@reverie/shared';

/**
 * What the user did on /transform, kept through a checkout round trip and a reload (as the
 * chat's draft is: this tab's sessionStorage, `transform-draft`): the chosen style, the rights
 * tick and — once the photo is on the server as an upload not yet paid (`uploaded` or
 * `verified`, swept after an hour untouched) — that upload's id. The photo itself is not kept
 * in the browser: the server already holds it (judged, re-encoded), so coming back reads it
 * from there (docs/transform.md "Web").
 */
export interface TransformDraft {
  style: TransformStyle;
  rights: boolean;
  /** The upload waiting for payment; null before the photo is uploaded. */
  id: string | null;
}

const KEY = 'transform-draft';

function session(): Storage | null {
  try {
    return window.sessionStorage;
  } catch {
    return null;
  }
}

export function readTransformDraft(): TransformDraft | null {
  try {
    const raw = session()?.getItem(KEY);
    if (!raw) return null;
    const value = JSON.parse(raw) as Partial<TransformDraft>;
    const style = TRANSFORM_STYLES.includes(value.style as TransformStyle) ? (value.style as TransformStyle) : 'anime';
    return { style, rights: value.rights === true, id: typeof value.id === 'string' ? value.id : null };
  } catch {
    return null;
  }
}

export function writeTransformDraft(draft: TransformDraft): void {
  try {
    session()?.setItem(KEY, JSON.stringify(draft));
  } catch {
    // Storage unavailable (private mode, quota): nothing is kept.
  }
}

export function clearTransformDraft(): void {
  try {
    session()?.removeItem(KEY);
  } catch {
    // ignore
  }
}
