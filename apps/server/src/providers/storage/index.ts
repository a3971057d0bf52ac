import path from 'node:path';
import type { Config } from '../../config.js';
import { LocalMediaStorage } from './local-storage.js';
import type { MediaStorage } from './storage.js';

export type { MediaStorage } from './storage.js';

/** The media storage the settings select (local files under DATA_DIR/media for now). */
export function createMediaStorage(config: Config): MediaStorage {
  return new LocalMediaStorage(path.join(config.dataDir, 'media'));
}
