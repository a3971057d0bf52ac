import ipaddr from 'ipaddr.js';
import { stdSerializers } from 'pino';

/**
 * What the logs must never carry (docs/ARCHITECTURE.md "Logging"): personal data (e-mail
 * addresses, the values a query was run with), secrets in links (signatures, tokens, codes)
 * and password hashes. Everything here is applied in one place, the logger's options
 * (lib/logger.ts): the error and request serializers and a hook over every log line's text.
 */

const CENSOR = '[redacted]';

/** Query parameters whose values are secrets: media signatures and expiries, tokens, codes. */
const SECRET_QUERY_NAME =
  /^(?:sig|signature|exp|expires|token|resume|code|key|secret|password|access|refresh|hash|otp|session_id|api_key|apikey|auth|x-amz-[a-z-]+)$/i;

/** Paths whose last segments are secrets: activation codes and password reset tokens. */
const SECRET_PATHS: RegExp[] = [/^(\/api\/activate\/)[^/?#]+/i, /^(\/password\/)[^/?#]+/i];

const EMAIL = /[\p{L}\p{N}._%+'-]+@[\p{L}\p{N}-]+(?:\.[\p{L}\p{N}-]+)+/gu;
/** argon2/bcrypt/scrypt password hashes in their PHC forms. */
const PASSWORD_HASH = /\$(?:argon2(?:id|i|d)|2[aby]|scrypt)\$[^\s"',)]+/g;
/** `name=value` of a secret query parameter anywhere in a text (URLs inside messages). */
const SECRET_QUERY_IN_TEXT =
  /([?&](?:sig|signature|exp|expires|token|resume|code|key|secret|password|access|refresh|hash|otp|session_id|api_key|apikey|auth|x-amz-[a-z-]+)=)[^&#\s"'<>]*/gi;
/** `Bearer <token>` in texts (a header copied into a message). */
const BEARER = /(Bearer\s+)[A-Za-z0-9._~+/=-]+/g;

/** Hides e-mail addresses in a text. */
export function redactEmails(text: string): string {
  return text.replace(EMAIL, '[email]');
}

/** True when the text contains something shaped like an e-mail address. */
export function containsEmail(text: string): boolean {
  EMAIL.lastIndex = 0;
  const found = EMAIL.test(text);
  EMAIL.lastIndex = 0;
  return found;
}

/**
 * A request URL fit for the logs: the values of secret query parameters and the secret
 * segments of activation and password links are replaced; the path's shape is kept.
 */
export function redactUrl(url: string): string {
  const queryAt = url.indexOf('?');
  let pathPart = queryAt === -1 ? url : url.slice(0, queryAt);
  const query = queryAt === -1 ? '' : url.slice(queryAt + 1);
  for (const pattern of SECRET_PATHS) pathPart = pathPart.replace(pattern, (_, first: string) => `${first}${CENSOR}`);
  pathPart = redactEmails(pathPart);
  if (!query) return pathPart;
  const parts = query.split('&').map((pair) => {
    const eq = pair.indexOf('=');
    if (eq === -1) return pair;
    let name = pair.slice(0, eq);
    try {
      name = decodeURIComponent(name);
    } catch {
      // A malformed escape: the raw name is checked.
    }
    if (SECRET_QUERY_NAME.test(name)) return `${pair.slice(0, eq)}=${CENSOR}`;
    let value = pair.slice(eq + 1);
    try {
      value = decodeURIComponent(value.replace(/\+/g, ' '));
    } catch {
      // Keep the raw value for the e-mail check.
    }
    return containsEmail(value) ? `${pair.slice(0, eq)}=[email]` : pair;
  });
  return `${pathPart}?${parts.join('&')}`;
}

/** Scrubs a free text (a log message, an error message or stack): e-mails, hashes, link secrets. */
export function scrubText(text: string): string {
  let out = text;
  // Drizzle's `Failed query: …\nparams: <values>`: the values go, the SQL stays.
  out = out.replace(/\nparams: [\s\S]*?(?=\n\s+at |\n\S+Error|$)/g, '\nparams: [redacted]');
  // PostgreSQL quoting a value it could not take: `invalid input syntax for type uuid: "…"`.
  out = out.replace(
    /(invalid input (?:syntax|value) for [^:\n]+: )"[^"\n]*"/g,
    (_, start: string) => `${start}"${CENSOR}"`,
  );
  out = out.replace(PASSWORD_HASH, () => CENSOR);
  out = out.replace(SECRET_QUERY_IN_TEXT, (_, first: string) => `${first}${CENSOR}`);
  out = out.replace(/(\/api\/activate\/|\/password\/)[A-Za-z0-9_-]{8,}/g, (_, first: string) => `${first}${CENSOR}`);
  out = out.replace(BEARER, (_, first: string) => `${first}${CENSOR}`);
  return redactEmails(out);
}

/**
 * Fields of database errors that carry the values of a query: the parameters (e-mail,
 * password hash, message text…), the driver's copies of them, and the rows of `detail`.
 * PGlite's DatabaseError has `params`, `query`, `queryOptions`; postgres.js's PostgresError
 * `parameters`, `args`, `types`, `query`; Drizzle's DrizzleQueryError `params`, `query`.
 */
const DROPPED_ERROR_FIELDS = new Set(['params', 'parameters', 'args', 'types', 'queryOptions', 'internalQuery']);

/** `Key (email)=(a@b.c) already exists.`, `Failing row contains (…)`: the values go. */
function scrubDetail(detail: string): string {
  return scrubText(
    detail.replace(/=\([\s\S]*\)/, () => `=(${CENSOR})`).replace(/contains \([\s\S]*\)/, () => `contains (${CENSOR})`),
  );
}

function scrubValue(value: unknown, depth: number): unknown {
  if (typeof value === 'string') return scrubText(value);
  if (depth > 4 || value === null || typeof value !== 'object') return value;
  if (Array.isArray(value)) return value.map((item) => scrubValue(item, depth + 1));
  const out: Record<string, unknown> = {};
  for (const [key, item] of Object.entries(value)) {
    if (DROPPED_ERROR_FIELDS.has(key)) continue;
    if (key === 'detail' && typeof item === 'string') out[key] = scrubDetail(item);
    else out[key] = scrubValue(item, depth + 1);
  }
  return out;
}

/**
 * The `err` serializer: pino's standard one, then the query values of database errors
 * dropped (both drivers and Drizzle's wrapper, causes included) and texts scrubbed.
 */
export function serializeError(error: unknown): unknown {
  if (!(error instanceof Error)) return scrubValue(error, 0);
  const serialized = stdSerializers.err(error) as unknown as Record<string, unknown>;
  // Non-enumerable copies (postgres.js) are never serialized; the causes are, as objects.
  const cause = (error as Error & { cause?: unknown }).cause;
  if (cause instanceof Error) serialized.cause = serializeError(cause);
  return scrubValue(serialized, 0);
}

/**
 * The request as the logs show it: no query secrets, no codes in paths, and the client's address
 * cut to its network (an address is personal data; its network still tells an operator where a
 * flood comes from). The client's port says nothing and is left out.
 */
export function serializeRequest(request: {
  method: string;
  url: string;
  host?: string;
  ip?: string;
}): Record<string, unknown> {
  return {
    method: request.method,
    url: redactUrl(request.url),
    host: request.host,
    remoteAddress: networkOf(request.ip),
  };
}

/**
 * An IP address cut to its network: IPv4 to its /24 (`203.0.113.0/24`, an IPv4-mapped IPv6
 * address too), IPv6 to its /48 (`2001:db8:85a3::/48`); anything else (no address, a Unix
 * socket) as `undefined`.
 */
export function networkOf(address: string | undefined): string | undefined {
  if (!address || !ipaddr.isValid(address)) return undefined;
  // `process` turns an IPv4-mapped IPv6 address (`::ffff:203.0.113.9`) into the IPv4 one.
  const parsed = ipaddr.process(address);
  const bits = parsed.kind() === 'ipv4' ? 24 : 48;
  const network = ipaddr.fromByteArray(parsed.toByteArray().map((byte, i) => (i * 8 < bits ? byte : 0)));
  return `${network.toString()}/${bits}`;
}
