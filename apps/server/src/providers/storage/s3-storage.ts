import { pipeline, Readable, Transform } from 'node:stream';
import fs from 'node:fs';
import fsp from 'node:fs/promises';
import type { ReadableStream as WebReadableStream } from 'node:stream/web';
import { AwsClient } from 'aws4fetch';
import { contentTypeOf, isValidMediaKey, type ByteRange, type MediaFileInfo, type MediaStorage } from './storage.js';

/** Passes bytes `start`…`end` of what flows through (a service that ignored `Range`). */
function slice(start: number, end: number): Transform {
  let position = 0;
  return new Transform({
    transform(chunk: Buffer, _encoding, done) {
      const from = Math.max(0, start - position);
      const to = Math.min(chunk.length, end + 1 - position);
      position += chunk.length;
      done(null, to > from ? chunk.subarray(from, to) : undefined);
    },
  });
}

export interface S3StorageOptions {
  endpoint: string;
  region: string;
  bucket: string;
  accessKeyId: string;
  secretAccessKey: string;
  /** `endpoint/bucket/key` (MinIO and most self-hosted services) instead of `bucket.endpoint/key`. */
  forcePathStyle: boolean;
  /** Only tests replace it. */
  fetch?: typeof fetch;
}

const XML_ENTITIES: Record<string, string> = { amp: '&', lt: '<', gt: '>', quot: '"', apos: "'" };
const decodeXml = (text: string) => text.replace(/&(amp|lt|gt|quot|apos);/g, (_, name: string) => XML_ENTITIES[name]!);

/**
 * Media in an S3-compatible bucket (AWS S3, MinIO, Cloudflare R2, Backblaze B2…). Requests
 * are signed with AWS Signature V4 by aws4fetch (a 2 KB dependency instead of the AWS SDK);
 * the bucket stays private — the server reads the objects and serves them itself, so the
 * access rules of `GET /api/media/{key}` hold for every provider.
 */
export class S3MediaStorage implements MediaStorage {
  private readonly client: AwsClient;
  private readonly bucketUrl: URL;

  constructor(private readonly options: S3StorageOptions) {
    this.client = new AwsClient({
      accessKeyId: options.accessKeyId,
      secretAccessKey: options.secretAccessKey,
      service: 's3',
      region: options.region,
      retries: 2,
    });
    const endpoint = new URL(options.endpoint);
    const base = endpoint.pathname.replace(/\/+$/, '');
    this.bucketUrl = options.forcePathStyle
      ? new URL(`${endpoint.origin}${base}/${encodeURIComponent(options.bucket)}/`)
      : new URL(`${endpoint.protocol}//${options.bucket}.${endpoint.host}${base}/`);
  }

  private objectUrl(key: string): string {
    if (!isValidMediaKey(key)) throw new Error(`invalid media key: ${key}`);
    return new URL(key.split('/').map(encodeURIComponent).join('/'), this.bucketUrl).toString();
  }

  private async send(url: string, init: RequestInit): Promise<Response> {
    const request = await this.client.sign(url, init);
    return (this.options.fetch ?? fetch)(request);
  }

  private static async fail(response: Response, what: string): Promise<never> {
    const body = await response.text().catch(() => '');
    const code = /<Code>([^<]+)<\/Code>/.exec(body)?.[1];
    throw new Error(`S3 ${what} failed: ${response.status}${code ? ` ${code}` : ''}`);
  }

  async put(key: string, data: Buffer, contentType: string): Promise<void> {
    const response = await this.send(this.objectUrl(key), {
      method: 'PUT',
      body: new Uint8Array(data),
      headers: { 'content-type': contentType, 'content-length': String(data.length) },
    });
    if (!response.ok) await S3MediaStorage.fail(response, `PUT ${key}`);
    await response.body?.cancel();
  }

  /** One PUT with the file as a streamed body (S3's single PUT takes up to 5 GB). */
  async putFile(key: string, filePath: string, contentType: string): Promise<void> {
    const { size } = await fsp.stat(filePath);
    const body = Readable.toWeb(fs.createReadStream(filePath)) as unknown as ReadableStream<Uint8Array>;
    const response = await this.send(this.objectUrl(key), {
      method: 'PUT',
      body,
      headers: { 'content-type': contentType, 'content-length': String(size) },
      duplex: 'half',
    } as RequestInit);
    if (!response.ok) await S3MediaStorage.fail(response, `PUT ${key}`);
    await response.body?.cancel();
  }

  async get(key: string): Promise<{ data: Buffer; contentType: string } | null> {
    const response = await this.send(this.objectUrl(key), { method: 'GET' });
    if (response.status === 404) {
      await response.body?.cancel();
      return null;
    }
    if (!response.ok) await S3MediaStorage.fail(response, `GET ${key}`);
    const data = Buffer.from(await response.arrayBuffer());
    return { data, contentType: contentTypeOf(key, response.headers.get('content-type') ?? undefined) };
  }

  /** HEAD: the object's size, type, ETag and Last-Modified as the service reports them. */
  async stat(key: string): Promise<MediaFileInfo | null> {
    const response = await this.send(this.objectUrl(key), { method: 'HEAD' });
    await response.body?.cancel();
    if (response.status === 404) return null;
    if (!response.ok) await S3MediaStorage.fail(response, `HEAD ${key}`);
    const size = Number(response.headers.get('content-length'));
    if (!Number.isSafeInteger(size) || size < 0) throw new Error(`S3 HEAD ${key} failed: no content length`);
    const given = response.headers.get('etag');
    const modified = new Date(response.headers.get('last-modified') ?? '');
    const lastModified = Number.isNaN(modified.getTime()) ? new Date(0) : modified;
    return {
      size,
      contentType: contentTypeOf(key, response.headers.get('content-type') ?? undefined),
      // S3's ETag is quoted already; a service without one gets size and date.
      etag: given ?? `"${size.toString(16)}-${lastModified.getTime().toString(16)}"`,
      lastModified,
    };
  }

  /** A ranged GET (`Range: bytes=start-end`); the body is passed on as it arrives. */
  async stream(key: string, range?: ByteRange): Promise<Readable | null> {
    const response = await this.send(this.objectUrl(key), {
      method: 'GET',
      headers: range ? { range: `bytes=${range.start}-${range.end}` } : {},
    });
    if (response.status === 404) {
      await response.body?.cancel();
      return null;
    }
    if (!response.ok) await S3MediaStorage.fail(response, `GET ${key}`);
    if (!response.body) return Readable.from([]);
    const body = Readable.fromWeb(response.body as unknown as WebReadableStream<Uint8Array>);
    // 206 is the range; a 200 is the whole object (a service that ignores ranges).
    if (range && response.status !== 206) return pipeline(body, slice(range.start, range.end), () => undefined);
    return body;
  }

  async exists(key: string): Promise<boolean> {
    const response = await this.send(this.objectUrl(key), { method: 'HEAD' });
    await response.body?.cancel();
    if (response.status === 404) return false;
    if (!response.ok) await S3MediaStorage.fail(response, `HEAD ${key}`);
    return true;
  }

  async delete(key: string): Promise<void> {
    const response = await this.send(this.objectUrl(key), { method: 'DELETE' });
    await response.body?.cancel();
    // S3 answers 204 for a missing key too; some services answer 404.
    if (!response.ok && response.status !== 404) await S3MediaStorage.fail(response, `DELETE ${key}`);
  }

  /** Lists every key under `prefix/` (ListObjectsV2, page by page), then deletes them. */
  async deletePrefix(prefix: string): Promise<void> {
    const folder = `${prefix.replace(/\/+$/, '')}/`;
    const keys: string[] = [];
    let token: string | undefined;
    do {
      const url = new URL(this.bucketUrl);
      url.searchParams.set('list-type', '2');
      url.searchParams.set('prefix', folder);
      if (token) url.searchParams.set('continuation-token', token);
      const response = await this.send(url.toString(), { method: 'GET' });
      if (!response.ok) await S3MediaStorage.fail(response, `LIST ${folder}`);
      const xml = await response.text();
      keys.push(...[...xml.matchAll(/<Key>([^<]*)<\/Key>/g)].map((m) => decodeXml(m[1]!)));
      const truncated = /<IsTruncated>true<\/IsTruncated>/.test(xml);
      token = truncated
        ? decodeXml(/<NextContinuationToken>([^<]*)<\/NextContinuationToken>/.exec(xml)?.[1] ?? '') || undefined
        : undefined;
    } while (token);
    // A few at a time: fast enough for a user's files, gentle on the service.
    const valid = keys.filter(isValidMediaKey);
    for (let i = 0; i < valid.length; i += 8) await Promise.all(valid.slice(i, i + 8).map((key) => this.delete(key)));
  }
}
