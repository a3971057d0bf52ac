/**
 * Paths of this site to come back to (after a checkout, after logging in: `next=`). No zod
 * here: the web app's shell checks `next` with it without loading the contract's schemas.
 */
export const RETURN_PATH_MAX = 512;

/**
 * A path of this site to come back to (after a checkout or a log-in): relative, same-origin, no scheme,
 * no host (`//evil.example`, `/\\evil.example`), no control characters. Never an open redirect.
 *
 * Accepted only when it is already in the form a URL parser gives back — so no dot segments
 * (`/..//evil.example` would normalise to `//evil.example`, a protocol-relative address) — and
 * without encoded dots, slashes or backslashes (`%2e`, `%2f`, `%5c`), which a later decoding
 * step could turn into the same.
 */
export function isSafeReturnPath(value: string): boolean {
  if (value.length === 0 || value.length > RETURN_PATH_MAX) return false;
  if (!value.startsWith('/') || value.startsWith('//')) return false;
  // Backslashes, spaces and control characters: browsers may read them as a host separator.
  for (const char of value) {
    const code = char.charCodeAt(0);
    if (code <= 0x20 || code === 0x7f || char === '\\') return false;
  }
  if (/%(2e|2f|5c)/i.test(value)) return false;
  try {
    const probe = 'http://return-path.invalid';
    const url = new URL(value, probe);
    if (url.origin !== probe || url.pathname.startsWith('//')) return false;
    // Exactly what the parser gives back: nothing was normalised away.
    return `${url.pathname}${url.search}${url.hash}` === value;
  } catch {
    return false;
  }
}
