import { createECDH, createHmac, createDecipheriv, createPublicKey, randomBytes, verify } from 'node:crypto';
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import https from 'node:https';
import os from 'node:os';
import path from 'node:path';
import type { AddressInfo } from 'node:net';

/** One push the fake push service accepted: decrypted, with its VAPID claims checked. */
export interface ReceivedPush {
  device: string;
  payload: unknown;
  headers: Record<string, string | string[] | undefined>;
  claims: { aud: string; exp: number; sub: string };
  vapidKey: string;
}

/** A browser's subscription as `PushSubscription.toJSON()` gives it, with its private key kept here. */
export interface FakeDevice {
  id: string;
  subscription: { endpoint: string; keys: { p256dh: string; auth: string } };
}

export interface FakePushService {
  url: string;
  /** Trusts the service's self-signed certificate: give it to the app (`pushAgent`). */
  agent: https.Agent;
  received: ReceivedPush[];
  /** Refusals (a status other than 201, and why) the service answered. */
  refused: Array<{ device: string; status: number; reason: string }>;
  device(): FakeDevice;
  /** The status this device's next pushes get (410: gone, 500: failing). */
  answer(deviceId: string, status: number): void;
  close(): Promise<void>;
}

const b64u = (buffer: Buffer) => buffer.toString('base64url');
const hmac = (key: Buffer, data: Buffer) => createHmac('sha256', key).update(data).digest();

/**
 * A push service that speaks the Web Push protocol (RFC 8030, 8291, 8292) over HTTPS on
 * loopback: it checks the VAPID JWT (ES256, audience, expiry, subject) against the `k` key,
 * and decrypts the aes128gcm body with the device's private key and auth secret.
 */
export async function startFakePushService(): Promise<FakePushService> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'reverie-push-'));
  execFileSync(
    'openssl',
    [
      'req',
      '-x509',
      '-newkey',
      'ec',
      '-pkeyopt',
      'ec_paramgen_curve:prime256v1',
      '-nodes',
      '-days',
      '1',
      '-subj',
      '/CN=127.0.0.1',
      '-addext',
      'subjectAltName=IP:127.0.0.1',
      '-keyout',
      path.join(dir, 'key.pem'),
      '-out',
      path.join(dir, 'cert.pem'),
    ],
    { stdio: 'ignore' },
  );
  const cert = fs.readFileSync(path.join(dir, 'cert.pem'));
  const key = fs.readFileSync(path.join(dir, 'key.pem'));
  fs.rmSync(dir, { recursive: true, force: true });

  const devices = new Map<string, { ecdh: ReturnType<typeof createECDH>; auth: Buffer; status: number }>();
  const received: ReceivedPush[] = [];
  const refused: FakePushService['refused'] = [];
  let origin = '';

  const server = https.createServer({ cert, key }, (req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const id = /^\/push\/([\w-]+)$/.exec(req.url ?? '')?.[1] ?? '';
      const refuse = (status: number, reason: string) => {
        refused.push({ device: id, status, reason });
        res.writeHead(status).end(reason);
      };
      const device = devices.get(id);
      if (!device || req.method !== 'POST') return refuse(404, 'no such subscription');
      if (device.status !== 201) return refuse(device.status, 'told to');
      try {
        const { claims, vapidKey } = checkVapid(String(req.headers.authorization ?? ''), origin);
        if (req.headers['content-encoding'] !== 'aes128gcm') throw new Error('not aes128gcm');
        if (!req.headers.ttl) throw new Error('no TTL');
        const plain = decrypt(Buffer.concat(chunks), device.ecdh, device.auth);
        received.push({
          device: id,
          payload: JSON.parse(plain.toString('utf8')),
          headers: req.headers,
          claims,
          vapidKey,
        });
        res.writeHead(201).end();
      } catch (error) {
        refuse(400, (error as Error).message);
      }
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  origin = `https://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    url: origin,
    agent: new https.Agent({ ca: cert }),
    received,
    refused,
    device() {
      const id = b64u(randomBytes(12));
      const ecdh = createECDH('prime256v1');
      ecdh.generateKeys();
      const auth = randomBytes(16);
      devices.set(id, { ecdh, auth, status: 201 });
      return {
        id,
        subscription: {
          endpoint: `${origin}/push/${id}`,
          keys: { p256dh: b64u(ecdh.getPublicKey()), auth: b64u(auth) },
        },
      };
    },
    answer(deviceId, status) {
      devices.get(deviceId)!.status = status;
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

/** RFC 8292: `vapid t=<JWT>, k=<public key>`; the JWT signed with ES256 by that key, for this origin. */
function checkVapid(header: string, origin: string) {
  const match = /^vapid t=([\w-]+\.[\w-]+\.[\w-]+), k=([\w-]+)$/.exec(header);
  if (!match) throw new Error('no VAPID authorization');
  const [jwt, k] = [match[1]!, match[2]!];
  const [h, p, s] = jwt.split('.') as [string, string, string];
  const head = JSON.parse(Buffer.from(h, 'base64url').toString()) as { alg: string; typ: string };
  if (head.alg !== 'ES256') throw new Error('not ES256');
  const raw = Buffer.from(k, 'base64url');
  if (raw.length !== 65 || raw[0] !== 4) throw new Error('k is not an uncompressed P-256 point');
  const publicKey = createPublicKey({
    key: { kty: 'EC', crv: 'P-256', x: b64u(raw.subarray(1, 33)), y: b64u(raw.subarray(33)) },
    format: 'jwk',
  });
  const ok = verify(
    'sha256',
    Buffer.from(`${h}.${p}`),
    { key: publicKey, dsaEncoding: 'ieee-p1363' },
    Buffer.from(s, 'base64url'),
  );
  if (!ok) throw new Error('bad VAPID signature');
  const claims = JSON.parse(Buffer.from(p, 'base64url').toString()) as { aud: string; exp: number; sub: string };
  const now = Date.now() / 1000;
  if (claims.aud !== origin) throw new Error(`wrong audience ${claims.aud}`);
  if (!(claims.exp > now && claims.exp <= now + 24 * 3600 + 60)) throw new Error('bad expiry');
  if (!/^(mailto:|https:)/.test(claims.sub)) throw new Error('bad subject');
  return { claims, vapidKey: k };
}

/** RFC 8291 + RFC 8188: the aes128gcm body, one record, decrypted with the device's keys. */
function decrypt(body: Buffer, ecdh: ReturnType<typeof createECDH>, auth: Buffer): Buffer {
  const salt = body.subarray(0, 16);
  const idLength = body[20]!;
  const asPublic = body.subarray(21, 21 + idLength);
  const ciphertext = body.subarray(21 + idLength);
  const shared = ecdh.computeSecret(asPublic);
  const info = Buffer.concat([Buffer.from('WebPush: info\0'), ecdh.getPublicKey(), asPublic, Buffer.from([1])]);
  const ikm = hmac(hmac(auth, shared), info).subarray(0, 32);
  const prk = hmac(salt, ikm);
  const cek = hmac(prk, Buffer.from('Content-Encoding: aes128gcm\0\x01', 'binary')).subarray(0, 16);
  const nonce = hmac(prk, Buffer.from('Content-Encoding: nonce\0\x01', 'binary')).subarray(0, 12);
  const decipher = createDecipheriv('aes-128-gcm', cek, nonce);
  decipher.setAuthTag(ciphertext.subarray(ciphertext.length - 16));
  const padded = Buffer.concat([decipher.update(ciphertext.subarray(0, ciphertext.length - 16)), decipher.final()]);
  let end = padded.length - 1;
  while (end >= 0 && padded[end] === 0) end--;
  if (padded[end] !== 2) throw new Error('no last-record delimiter');
  return padded.subarray(0, end);
}
