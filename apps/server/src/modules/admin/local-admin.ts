import { randomBytes, timingSafeEqual } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';

/**
 * The running server's local operator key (docs/operations.md "The first administrator"): on
 * the embedded database only one process may open the data, so `npm run admin:create|ban|unban`
 * asks the running server instead. At start the server writes a random key and its loopback
 * address to `DATA_DIR/local-admin.json` (mode 0600, readable only by its user); the command
 * reads it and calls `POST /api/local/admin` with it, from the same machine.
 */
export interface LocalAdminKeyFile {
  pid: number;
  url: string;
  key: string;
}

export const LOCAL_ADMIN_KEY_HEADER = 'x-reverie-local-key';

export const localAdminKeyPath = (dataDir: string) => path.join(dataDir, 'local-admin.json');

export const newLocalAdminKey = () => randomBytes(32).toString('base64url');

/** Writes the key file (0600, atomically). */
export function writeLocalAdminKey(dataDir: string, content: LocalAdminKeyFile): void {
  fs.mkdirSync(dataDir, { recursive: true });
  const target = localAdminKeyPath(dataDir);
  const temporary = `${target}.${process.pid}.tmp`;
  fs.writeFileSync(temporary, JSON.stringify(content), { mode: 0o600 });
  fs.chmodSync(temporary, 0o600);
  fs.renameSync(temporary, target);
}

export function readLocalAdminKey(dataDir: string): LocalAdminKeyFile | null {
  try {
    const parsed = JSON.parse(fs.readFileSync(localAdminKeyPath(dataDir), 'utf8')) as Partial<LocalAdminKeyFile>;
    if (typeof parsed.key !== 'string' || typeof parsed.url !== 'string' || typeof parsed.pid !== 'number') return null;
    return { pid: parsed.pid, url: parsed.url, key: parsed.key };
  } catch {
    return null;
  }
}

/** Removes the key file if it is this process's. */
export function removeLocalAdminKey(dataDir: string): void {
  if (readLocalAdminKey(dataDir)?.pid === process.pid) fs.rmSync(localAdminKeyPath(dataDir), { force: true });
}

/** Constant-time comparison of a presented key with the server's. */
export function sameKey(expected: string, given: string | undefined): boolean {
  if (!given) return false;
  const a = Buffer.from(expected);
  const b = Buffer.from(given);
  return a.length === b.length && timingSafeEqual(a, b);
}

/** 127.0.0.0/8 and ::1, also as IPv4-mapped IPv6. */
export function isLoopback(address: string | undefined): boolean {
  if (!address) return false;
  const plain = address.startsWith('::ffff:') ? address.slice(7) : address;
  return plain === '::1' || /^127\.\d{1,3}\.\d{1,3}\.\d{1,3}$/.test(plain);
}
