import type { Database } from '../../db/client.js';
import { transformOfMediaKey } from './media-keys.js';
import { deleteTransform } from './transforms.repository.js';

/** What the admin console's takedowns do with style transforms. */
export class TransformsConsole {
  /** The transform a media key belongs to, if any. */
  transformOfMediaKey(key: string) {
    return transformOfMediaKey(key);
  }

  /** Deletes its row in `tx` (the takedown's transaction); answers its files' keys. */
  deleteTransform(tx: Database, id: string, userId: string) {
    return deleteTransform(tx, id, userId);
  }
}
