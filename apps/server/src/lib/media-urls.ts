import { createHmac, timingSafeEqual } from 'node:crypto';

const SIGNED_URL_TTL_S = 24 * 60 * 60;

/** A media file's public path (`/api/media/{key}`): for files anyone may see, no signature. */
export const publicMediaUrl = (key: string): string => `/api/media/${key}`;

/**
 * Builds `/api/media/{key}` URLs. Private media get an expiring HMAC signature so that an
 * `<img>` (which carries no bearer token) can load it; the signature is bound to the key.
 */
export class MediaUrls {
  constructor(private readonly secret: string) {}

  private sign(key: string, expires: number): string {
    return createHmac('sha256', this.secret).update(`media:${key}:${expires}`).digest('base64url');
  }

  url(key: string | null, options: { signed: boolean; now?: number }): string | null {
    if (!key) return null;
    if (!options.signed) return publicMediaUrl(key);
    // Rounded to the hour so the same URL (and browser cache) holds for a while.
    const hour = 3600;
    const expires = Math.ceil(((options.now ?? Date.now()) / 1000 + SIGNED_URL_TTL_S) / hour) * hour;
    return `${publicMediaUrl(key)}?exp=${expires}&sig=${this.sign(key, expires)}`;
  }

  verify(key: string, exp: string | undefined, sig: string | undefined, now = Date.now()): boolean {
    if (!exp || !sig || !/^\d{1,12}$/.test(exp)) return false;
    const expires = Number(exp);
    if (expires * 1000 < now) return false;
    const expected = Buffer.from(this.sign(key, expires));
    const given = Buffer.from(sig);
    return expected.length === given.length && timingSafeEqual(expected, given);
  }
}
