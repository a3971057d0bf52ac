import { randomBytes, randomUUID } from 'node:crypto';
import {
  TRANSFORM_COST,
  TRANSFORM_STYLES,
  type Transform,
  type TransformList,
  type TransformPayment,
  type TransformPreview,
  type TransformStep,
  type TransformStyle,
} from '@reverie/shared';
import type { Database } from '../../db/client.js';
import { violatedUniqueIndex } from '../../db/errors.js';
import { AppError, notFound } from '../../lib/errors.js';
import { sanitizeImage } from '../../lib/images.js';
import type { MediaUrls } from '../../lib/media-urls.js';
import type { ServiceLog } from '../../lib/logger.js';
import type { JobQueue } from '../../providers/jobs/index.js';
import { schedulePeriodicJob } from '../../providers/jobs/periodic.js';
import type { WindowLimiter } from '../../providers/limits/index.js';
import type { MediaStorage } from '../../providers/storage/storage.js';
import { creditDesires, debitDesires, hasPremium, readBalance } from '../billing/index.js';
import type { BotsService } from '../bots/index.js';
import { userTransformPrefix } from './media-keys.js';
import { renderStyle } from './styles/index.js';
import type { TransformProvider } from './transform-provider.js';
import { presentTransform } from './transforms.presenter.js';
import {
  claimProcessing,
  deleteAbandonedTransforms,
  deleteTransform,
  deleteUnpaidTransforms,
  failTransform,
  findOwnedTransform,
  findTransform,
  finishTransform,
  insertTransform,
  listTransforms,
  markVerified,
  releaseProcessing,
  setCharged,
  type TransformRow,
} from './transforms.repository.js';

/** What a transform asks of the bots module: the check of a photo that may be neither a minor's nor explicit. */
export type TransformPictureCheck = Pick<BotsService, 'refuseUnsafePicture'>;

export interface TransformsDeps {
  db: Database;
  storage: MediaStorage;
  urls: MediaUrls;
  /**
   * The bots module's photo check (face-age estimate, nudity, the moderation provider;
   * docs/moderation.md): a minor's or an explicit picture is refused.
   */
  pictureCheck: TransformPictureCheck;
  provider: TransformProvider;
  /** The durable job queue; null where nothing is queued (the benchmark calls the provider). */
  jobs: JobQueue | null;
  /** Uploads and previews per user and hour (shared limits). */
  uploadLimiter: WindowLimiter;
  previewLimiter: WindowLimiter;
  log: Pick<ServiceLog, 'info' | 'warn'>;
  timeoutS: number;
  concurrency: number;
  retries: number;
  retryDelayS: number;
}

/** The periodic sweep of abandoned uploads (`sweepAbandoned`). */
export const TRANSFORM_SWEEP_QUEUE = 'image-transform-sweep';
/** An unpaid upload untouched this long is abandoned: it is deleted with its files. */
export const ABANDONED_AFTER_S = 3600;
/** How often the sweep runs. */
const SWEEP_EVERY_S = 900;

/** The transform jobs' queue; one job per transform (singleton key = its id). */
export const TRANSFORM_QUEUE = 'image-transform';
/** The gallery shows this many of the newest transforms. */
const GALLERY_SIZE = 60;
/** Previews: every style on a copy this many pixels on its longer side. */
const PREVIEW_SIDE = 192;

interface TransformJob {
  id: string;
  userId: string;
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const randomName = () => randomBytes(12).toString('hex');
const isStyle = (style: string): style is TransformStyle => (TRANSFORM_STYLES as readonly string[]).includes(style);

/**
 * The image style transform (issue 16, docs/transform.md): upload → verify (rights
 * attestation, the bots module's photo check) → payment (5 desires through the ledger, once;
 * premium free) → one durable job → `ready` or `failed` (refunded). Files are private
 * (`transforms/<user id>/…`, served with signed URLs only); another user's transform is 404.
 */
export class TransformsService {
  constructor(private readonly deps: TransformsDeps) {
    deps.jobs?.work<TransformJob>(TRANSFORM_QUEUE, (job, signal) => this.runJob(job, signal), {
      concurrency: deps.concurrency,
      retryLimit: deps.retries,
      retryDelaySeconds: deps.retryDelayS,
      retryBackoff: true,
      expireInSeconds: deps.timeoutS + 30,
      onFailed: (job) => this.failJob(job),
    });
    this.sweep = deps.jobs
      ? schedulePeriodicJob(deps.jobs, TRANSFORM_SWEEP_QUEUE, {
          everyS: SWEEP_EVERY_S,
          run: async () => void (await this.sweepAbandoned()),
        })
      : null;
  }

  private readonly sweep: { scheduleNext(): Promise<void> } | null;

  /** Queues the next sweep of abandoned uploads (once the job queue has started). */
  async start(): Promise<void> {
    await this.sweep?.scheduleNext();
  }

  /**
   * Deletes abandoned uploads — a photo stored and never judged (`uploaded`), or judged and
   * never paid (`verified`) — untouched for `ABANDONED_AFTER_S`, and their files. The periodic
   * job (`TRANSFORM_SWEEP_QUEUE`, once per period for the cluster) runs it.
   */
  async sweepAbandoned(now = Date.now()): Promise<number> {
    let total = 0;
    for (;;) {
      const rows = await deleteAbandonedTransforms(this.deps.db, new Date(now - ABANDONED_AFTER_S * 1000), 500);
      for (const row of rows) await this.deleteFiles(row);
      total += rows.length;
      if (rows.length < 500) break;
    }
    if (total) this.deps.log.info({ deleted: total }, 'abandoned transform uploads deleted');
    return total;
  }

  /** Resolves when no transform job is queued or running, on any replica (tests). */
  idle(): Promise<void> {
    return this.deps.jobs?.idle([TRANSFORM_QUEUE]) ?? Promise.resolve();
  }

  private async limit(limiter: WindowLimiter, userId: string): Promise<void> {
    const wait = await limiter.take(userId);
    if (wait > 0) throw new AppError('rate_limited', { status: 429, headers: { 'retry-after': String(wait) } });
  }

  /** `POST /api/image_transform`: checks and stores the photo; the user's unpaid uploads are replaced. */
  async upload(userId: string, file: Buffer | null, style: string): Promise<TransformStep> {
    const { db, storage } = this.deps;
    if (!file || file.length === 0)
      throw new AppError('validation_error', { status: 400, errors: { image: ['required'] } });
    if (!isStyle(style)) throw new AppError('validation_error', { status: 400, errors: { style: ['invalid_value'] } });
    await this.limit(this.deps.uploadLimiter, userId);
    // By its content (magic bytes through sharp), never its name or Content-Type: 413 / 415 / 400.
    const image = await sanitizeImage(file);
    for (const old of await deleteUnpaidTransforms(db, userId)) await this.deleteFiles(old);
    const id = randomUUID();
    const originalKey = `${userTransformPrefix(userId)}/${id}-original-${randomName()}.webp`;
    await storage.put(originalKey, image.data, image.contentType);
    try {
      await insertTransform(db, { id, userId, style, originalKey });
    } catch (error) {
      await storage.delete(originalKey).catch(() => undefined);
      throw error;
    }
    return { id, state: 'uploaded' };
  }

  /**
   * `POST /api/image_transform/verify`: the rights attestation and the photo check (a minor's
   * face or nudity → 422 "Inappropriate content"; the refused photo is deleted at once).
   */
  async verify(userId: string, id: string): Promise<TransformStep> {
    const { db, storage } = this.deps;
    const row = await this.owned(userId, id);
    if (row.state !== 'uploaded') {
      if (row.state === 'verified' || row.state === 'processing' || row.state === 'ready')
        return { id, state: row.state };
      throw new AppError('transform_not_allowed', { status: 409 });
    }
    const file = await storage.get(row.originalKey);
    if (!file) throw notFound();
    try {
      await this.deps.pictureCheck.refuseUnsafePicture(file.data);
    } catch (error) {
      if (error instanceof AppError && error.code === 'inappropriate_content') {
        // A refused picture is not kept.
        await deleteTransform(db, id, userId);
        await this.deleteFiles(row);
      }
      throw error;
    }
    await markVerified(db, id, userId);
    return { id, state: 'verified' };
  }

  /**
   * `POST /api/image_transform/payment`: claims the transform (one running per user), takes 5
   * desires through the ledger (idempotency key per transform: never twice; premium: free)
   * and queues its job. Asked again, it answers the state without paying again.
   */
  async pay(userId: string, id: string): Promise<TransformPayment> {
    const { db } = this.deps;
    const row = await this.owned(userId, id);
    if (row.state === 'uploaded') throw new AppError('transform_not_verified', { status: 409 });
    if (row.state !== 'verified') return { id, state: row.state, num_tokens: await readBalance(db, userId) };
    let claimed: boolean;
    try {
      claimed = await claimProcessing(db, id, userId);
    } catch (error) {
      if (violatedUniqueIndex(error) !== null) throw new AppError('transform_in_progress', { status: 409 });
      throw error;
    }
    if (!claimed) {
      // Another request paid meanwhile.
      const now = await this.owned(userId, id);
      return { id, state: now.state, num_tokens: await readBalance(db, userId) };
    }
    let balance: number | null = null;
    if (!(await hasPremium(db, userId))) {
      try {
        // The debit and the `charged` the refund reads: both or neither.
        balance = await db.transaction(async (txn) => {
          const tx = txn as unknown as Database;
          const debited = await debitDesires(tx, userId, TRANSFORM_COST, {
            reason: 'spend',
            reference: `transform:${id}`,
            idempotencyKey: `transform:${id}`,
          });
          await setCharged(tx, id, TRANSFORM_COST);
          return debited.balance;
        });
      } catch (error) {
        await releaseProcessing(db, id);
        throw error;
      }
    }
    try {
      if (!this.deps.jobs) throw new Error('no job queue');
      await this.deps.jobs.send<TransformJob>(TRANSFORM_QUEUE, { id, userId }, { singletonKey: id });
    } catch (error) {
      this.deps.log.warn({ err: error, transformId: id }, 'transform job could not be queued');
      await this.failJob({ id, userId }, 'service_unavailable');
      throw new AppError('service_unavailable', { status: 503 });
    }
    return { id, state: 'processing', num_tokens: balance ?? (await readBalance(db, userId)) };
  }

  /**
   * `GET /api/image_transform/{id}/`. A transform `processing` for longer than all its attempts
   * could take (its job was never queued: the process stopped between the payment and the
   * queue) is queued again; the singleton key adds nothing when its job still exists.
   */
  async get(userId: string, id: string): Promise<Transform> {
    const row = await this.owned(userId, id);
    const longest = (this.deps.timeoutS + 30 + this.deps.retryDelayS * 4) * (this.deps.retries + 1) * 1000;
    if (row.state === 'processing' && Date.now() - row.updatedAt.getTime() > longest && this.deps.jobs) {
      await this.deps.jobs
        .send<TransformJob>(TRANSFORM_QUEUE, { id, userId }, { singletonKey: id })
        .catch((error: unknown) =>
          this.deps.log.warn({ err: error, transformId: id }, 'transform job could not be queued'),
        );
    }
    return presentTransform(row, this.deps.urls);
  }

  /** `GET /api/image_transform`: the user's gallery, newest first. */
  async list(userId: string): Promise<TransformList> {
    const rows = await listTransforms(this.deps.db, userId, GALLERY_SIZE);
    return { results: rows.map((row) => presentTransform(row, this.deps.urls)) };
  }

  /** `DELETE /api/image_transform/{id}/`: the row and both files; not while it is being made. */
  async delete(userId: string, id: string): Promise<void> {
    const row = await this.owned(userId, id);
    if (row.state === 'processing') throw new AppError('transform_in_progress', { status: 409 });
    const deleted = await deleteTransform(this.deps.db, id, userId);
    if (deleted) await this.deleteFiles(deleted);
  }

  /**
   * `POST /api/image_transform/preview`: every style on a small copy of the photo, as data
   * URLs, for the style picker. Nothing is stored; the photo check runs first.
   */
  async preview(userId: string, file: Buffer | null): Promise<TransformPreview> {
    if (!file || file.length === 0)
      throw new AppError('validation_error', { status: 400, errors: { image: ['required'] } });
    await this.limit(this.deps.previewLimiter, userId);
    const image = await sanitizeImage(file);
    await this.deps.pictureCheck.refuseUnsafePicture(image.data);
    const previews = await Promise.all(
      TRANSFORM_STYLES.map(async (style) => {
        const out = await renderStyle(image.data, style, { maxSide: PREVIEW_SIDE, quality: 72 });
        return { style, data_url: `data:image/webp;base64,${out.data.toString('base64')}` };
      }),
    );
    return { previews };
  }

  private async owned(userId: string, id: string): Promise<TransformRow> {
    if (!UUID.test(id)) throw notFound();
    const row = await findOwnedTransform(this.deps.db, id, userId);
    if (!row) throw notFound();
    return row;
  }

  private async deleteFiles(row: Pick<TransformRow, 'originalKey' | 'resultKey'>): Promise<void> {
    for (const key of [row.originalKey, row.resultKey])
      if (key) await this.deps.storage.delete(key).catch(() => undefined);
  }

  /** One attempt: a throw (or the signal: expiry, shutdown) is retried while retries are left. */
  private async runJob(job: TransformJob, signal: AbortSignal): Promise<void> {
    const { db, storage, provider } = this.deps;
    const row = await findTransform(db, job.id);
    if (!row || row.state !== 'processing') return;
    const original = await storage.get(row.originalKey);
    if (!original) throw new Error('the original is missing');
    const result = await provider.transform(original.data, row.style as TransformStyle, { signal });
    signal.throwIfAborted();
    // A diffusion model's output is a new picture: it passes the same judge as the photo did
    // (the negative prompt alone is no guarantee). The embedded engine only filters the judged photo.
    if (provider.name !== 'local') await this.deps.pictureCheck.refuseUnsafePicture(result.data);
    const resultKey = `${userTransformPrefix(row.userId)}/${row.id}-result-${randomName()}.webp`;
    await storage.put(resultKey, result.data, result.contentType);
    // Deleted meanwhile: the file does not stay behind.
    if (!(await finishTransform(db, row.id, resultKey))) await storage.delete(resultKey).catch(() => undefined);
  }

  /**
   * Failed for good (retries used up, or its replica died): the desires come back through the
   * ledger (a credit with its own idempotency key: once, however often this runs), then `failed`.
   */
  private async failJob(job: TransformJob, code = 'transform_failed'): Promise<void> {
    const { db } = this.deps;
    const row = await findTransform(db, job.id);
    if (!row || (row.state !== 'processing' && row.state !== 'failed')) return;
    if (row.charged > 0) {
      await creditDesires(db, row.userId, row.charged, {
        reason: 'adjustment',
        reference: `transform:${row.id}`,
        idempotencyKey: `transform-refund:${row.id}`,
      });
    }
    await failTransform(db, row.id, code);
    this.deps.log.warn({ transformId: row.id, code }, 'transform failed for good; refunded');
  }
}
