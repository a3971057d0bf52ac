import path from 'node:path';
import type { Config } from '../../config.js';
import { LocalMediaStorage } from './local-storage.js';
import { S3MediaStorage } from './s3-storage.js';
import type { MediaStorage } from './storage.js';

export type { MediaStorage } from './storage.js';

/** The media storage the settings select: local files under DATA_DIR/media, or an S3-compatible bucket. */
export function createMediaStorage(config: Config): MediaStorage {
  if (config.STORAGE_PROVIDER === 's3') {
    const missing = (['S3_ENDPOINT', 'S3_BUCKET', 'S3_ACCESS_KEY_ID', 'S3_SECRET_ACCESS_KEY'] as const).filter(
      (name) => !config[name],
    );
    if (missing.length) throw new Error(`STORAGE_PROVIDER=s3 needs ${missing.join(', ')}`);
    return new S3MediaStorage({
      endpoint: config.S3_ENDPOINT!,
      region: config.S3_REGION,
      bucket: config.S3_BUCKET!,
      accessKeyId: config.S3_ACCESS_KEY_ID!,
      secretAccessKey: config.S3_SECRET_ACCESS_KEY!,
      forcePathStyle: config.S3_FORCE_PATH_STYLE,
    });
  }
  return new LocalMediaStorage(path.join(config.dataDir, 'media'));
}
