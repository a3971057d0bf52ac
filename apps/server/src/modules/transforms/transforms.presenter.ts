import type { Transform, TransformStyle } from '@reverie/shared';
import type { MediaUrls } from '../../lib/media-urls.js';
import type { TransformRow } from './transforms.repository.js';

/** A transform row as the API shows it: signed, expiring URLs of the original and the result. */
export function presentTransform(row: TransformRow, urls: MediaUrls): Transform {
  return {
    id: row.id,
    state: row.state,
    style: row.style as TransformStyle,
    result_url: row.state === 'ready' ? urls.url(row.resultKey, { signed: true }) : null,
    original_url: urls.url(row.originalKey, { signed: true }),
    charged: row.charged,
    error: row.state === 'failed' ? (row.errorCode ?? 'transform_failed') : null,
    created_at: row.createdAt.toISOString(),
  };
}
