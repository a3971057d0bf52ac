import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';

/**
 * The signing secret: JWT_SECRET from the environment, else one generated on first start
 * and kept in DATA_DIR/secret.key (readable by the server's user only), so tokens survive
 * restarts on a single machine. Several instances must share JWT_SECRET.
 */
export function resolveSecret(configured: string | undefined, dataDir: string): string {
  if (configured) return configured;
  const file = path.join(dataDir, 'secret.key');
  try {
    return fs.readFileSync(file, 'utf8').trim();
  } catch {
    fs.mkdirSync(dataDir, { recursive: true });
    const secret = randomBytes(48).toString('base64url');
    fs.writeFileSync(file, secret, { mode: 0o600, flag: 'wx' });
    return fs.readFileSync(file, 'utf8').trim();
  }
}

/** Like `resolveSecret`, for another secret kept in DATA_DIR/<fileName> when unset. */
export function resolveNamedSecret(configured: string | undefined, dataDir: string, fileName: string): string {
  if (configured) return configured;
  const file = path.join(dataDir, fileName);
  try {
    return fs.readFileSync(file, 'utf8').trim();
  } catch {
    fs.mkdirSync(dataDir, { recursive: true });
    try {
      fs.writeFileSync(file, randomBytes(32).toString('base64url'), { mode: 0o600, flag: 'wx' });
    } catch {
      // Another process wrote it first; read theirs.
    }
    return fs.readFileSync(file, 'utf8').trim();
  }
}
