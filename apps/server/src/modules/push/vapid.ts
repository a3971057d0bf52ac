import fs from 'node:fs';
import path from 'node:path';
import webpush from 'web-push';

/** A VAPID key pair, base64url (RFC 8292). */
export interface VapidKeys {
  publicKey: string;
  privateKey: string;
}

/**
 * The VAPID keys: VAPID_PUBLIC_KEY/VAPID_PRIVATE_KEY from the environment (shared by replicas),
 * else a pair generated on first start and kept in DATA_DIR/vapid.json (readable by the
 * server's user only), like the JWT secret (lib/secrets.ts). A half-set pair is refused.
 */
export function resolveVapidKeys(configured: { publicKey?: string; privateKey?: string }, dataDir: string): VapidKeys {
  if (configured.publicKey && configured.privateKey) {
    return { publicKey: configured.publicKey, privateKey: configured.privateKey };
  }
  if (configured.publicKey || configured.privateKey) {
    throw new Error('VAPID_PUBLIC_KEY and VAPID_PRIVATE_KEY must be set together (docs/companion.md)');
  }
  const file = path.join(dataDir, 'vapid.json');
  const read = (): VapidKeys => {
    const keys = JSON.parse(fs.readFileSync(file, 'utf8')) as VapidKeys;
    if (typeof keys.publicKey !== 'string' || typeof keys.privateKey !== 'string')
      throw new Error(`${file}: not a key pair`);
    return keys;
  };
  try {
    return read();
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
  }
  fs.mkdirSync(dataDir, { recursive: true });
  try {
    fs.writeFileSync(file, JSON.stringify(webpush.generateVAPIDKeys()), { mode: 0o600, flag: 'wx' });
  } catch {
    // Another process wrote it first; read theirs.
  }
  return read();
}
