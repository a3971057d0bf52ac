import { z } from 'zod';
import { freeText, singleLine } from '../input.js';
import { matchWebRoute } from '../routes.js';
import { EmailField } from './accounts.js';

/**
 * Takedown requests (`/takedown`, API.md `POST /api/takedown`; TAKE IT DOWN Act): anyone names
 * the content to remove — links to this site (a character's page, a media URL) or message
 * ids — with an e-mail, a description and a good-faith statement signed with a full name.
 * Messages are keys of `validation.*` (the server's field errors and the form show the same text).
 */
export const TAKEDOWN_ITEMS_MAX = 20;
export const TAKEDOWN_DESCRIPTION_MAX = 4000;
export const TAKEDOWN_SIGNATURE_MAX = 200;
export const TAKEDOWN_URL_MAX = 2000;
/** A valid request is handled within this many hours. */
export const TAKEDOWN_DEADLINE_HOURS = 48;
/** `TD-` and 8 characters without look-alikes (no 0/O, 1/I/L). */
export const TAKEDOWN_REFERENCE_ALPHABET = '23456789ABCDEFGHJKMNPQRSTUVWXYZ';
export const TAKEDOWN_REFERENCE_PATTERN = /^TD-[23456789ABCDEFGHJKMNPQRSTUVWXYZ]{8}$/;

const UUID_PATTERN = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const MEDIA_KEY = /^[a-z0-9][a-z0-9_-]*(?:\/[a-z0-9][a-z0-9_.-]*)*$/i;
/** A picture's derived copy (`<key>.w256.webp`) names the picture itself. */
const VARIANT_SUFFIX = /\.w\d+\.webp$/;

/** What one named item is, once read. */
export type TakedownTarget =
  { kind: 'message'; id: string } | { kind: 'media'; key: string } | { kind: 'character'; slug: string };

/**
 * Reads one item: a message id (a UUID), or a link to this site (`siteOrigin`; a path such as
 * `/api/media/…` is read on it) to a character's page (`/{slug}`, `?chat=` ignored) or a media
 * file (`/api/media/{key}`, a resized copy naming its picture). Answers `foreign` for a link to
 * another site and `invalid` for anything else.
 */
export function parseTakedownItem(value: string, siteOrigin?: string): TakedownTarget | 'foreign' | 'invalid' {
  const text = value.trim();
  if (!text) return 'invalid';
  if (UUID_PATTERN.test(text)) return { kind: 'message', id: text.toLowerCase() };
  let url: URL;
  try {
    url = new URL(text, siteOrigin ?? 'http://site.invalid');
  } catch {
    return 'invalid';
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') return 'invalid';
  const absolute = /^[a-z][a-z0-9+.-]*:/i.test(text) || text.startsWith('//');
  if (!absolute && !text.startsWith('/')) {
    // "example.com/x" without a scheme: read as a host.
    if (/^[^/\s]+\.[a-z]{2,}(?:[/:?#]|$)/i.test(text)) {
      return parseTakedownItem(`https://${text}`, siteOrigin);
    }
    return 'invalid';
  }
  if (absolute && siteOrigin) {
    let site: URL;
    try {
      site = new URL(siteOrigin);
    } catch {
      return 'invalid';
    }
    if (url.host.toLowerCase() !== site.host.toLowerCase()) return 'foreign';
  }
  let path: string;
  try {
    path = decodeURIComponent(url.pathname);
  } catch {
    return 'invalid';
  }
  if (path.startsWith('/api/media/')) {
    const key = path.slice('/api/media/'.length).replace(VARIANT_SUFFIX, '');
    return key.length <= 300 && MEDIA_KEY.test(key) && !key.includes('..') ? { kind: 'media', key } : 'invalid';
  }
  const route = matchWebRoute(path);
  if (route?.pattern === '/:slug' && route.params.slug) return { kind: 'character', slug: route.params.slug };
  return 'invalid';
}

const itemList = z
  .array(
    singleLine(z.string({ error: 'invalid_value' }))
      .trim()
      .max(TAKEDOWN_URL_MAX, 'takedown_item_invalid'),
    {
      error: 'invalid_value',
    },
  )
  .max(TAKEDOWN_ITEMS_MAX, 'too_many_items')
  .optional()
  .default([]);

const requiredText = (key: string) =>
  z.string({ error: (issue) => (issue.input === undefined || issue.input === null ? key : 'invalid_value') });

/**
 * The request's body. With `siteOrigin` (the form, and the server with `PUBLIC_URL`) a link
 * to another site is refused item by item (`urls.<i>`); without it only the shape is checked.
 */
export function takedownBodySchema(siteOrigin?: string) {
  return z
    .object({
      email: EmailField,
      urls: itemList,
      message_ids: itemList,
      description: freeText(requiredText('takedown_description_required'))
        .trim()
        .min(1, 'takedown_description_required')
        .max(TAKEDOWN_DESCRIPTION_MAX, 'too_long'),
      signature: singleLine(requiredText('takedown_signature_required'))
        .trim()
        .min(1, 'takedown_signature_required')
        .max(TAKEDOWN_SIGNATURE_MAX, 'too_long'),
      /** The good-faith statement's checkbox: must be `true`. */
      statement: z.literal(true, { error: 'takedown_statement_required' }),
    })
    .superRefine((body, ctx) => {
      const urls = body.urls.filter((u) => u.length > 0);
      const ids = body.message_ids.filter((u) => u.length > 0);
      if (urls.length + ids.length === 0) {
        ctx.addIssue({ code: 'custom', message: 'takedown_items_required', path: ['urls'] });
        return;
      }
      if (urls.length + ids.length > TAKEDOWN_ITEMS_MAX) {
        ctx.addIssue({ code: 'custom', message: 'too_many_items', path: ['urls'] });
      }
      body.urls.forEach((value, i) => {
        if (!value) return;
        const parsed = parseTakedownItem(value, siteOrigin);
        if (parsed === 'foreign') ctx.addIssue({ code: 'custom', message: 'takedown_link_foreign', path: ['urls', i] });
        else if (parsed === 'invalid' || parsed.kind === 'message')
          ctx.addIssue({ code: 'custom', message: 'takedown_item_invalid', path: ['urls', i] });
      });
      body.message_ids.forEach((value, i) => {
        if (value && !UUID_PATTERN.test(value))
          ctx.addIssue({ code: 'custom', message: 'takedown_message_id_invalid', path: ['message_ids', i] });
      });
    });
}

export const TakedownBodySchema = takedownBodySchema().meta({ id: 'TakedownBody' });
export type TakedownBody = z.input<typeof TakedownBodySchema>;
export const TakedownCreatedSchema = z.object({ reference: z.string() }).meta({ id: 'TakedownCreated' });
export type TakedownCreated = z.infer<typeof TakedownCreatedSchema>;
