import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import type { Readable } from 'node:stream';
import {
  DATA_EXPORT_EVERY_HOURS,
  DATA_EXPORT_TTL_HOURS,
  toLocale,
  type DataExport,
  type DataExportStatus,
  type Edition,
  type UserEvent,
} from '@reverie/shared';
import type { Database } from '../../db/client.js';
import { AppError, notFound } from '../../lib/errors.js';
import type { ServiceLog } from '../../lib/logger.js';
import { mailSafe } from '../../lib/templates.js';
import type { JobQueue } from '../../providers/jobs/index.js';
import type { WindowLimiter } from '../../providers/limits/index.js';
import type { MailProvider } from '../../providers/mail/mail.provider.js';
import type { MediaStorage } from '../../providers/storage/storage.js';
import { ZipFileWriter } from './archive.js';
import { writeArchive } from './contents.js';
import { renderReadyEmail } from './data-export.emails.js';
import { presentExport } from './data-export.presenter.js';
import * as repo from './data-export.repository.js';

export const DATA_EXPORT_QUEUE = 'data-export';
export const DATA_EXPORT_EXPIRE_QUEUE = 'data-export-expire';

/** Where a user's archives live in media storage (deleted with the account). */
export const dataExportPrefix = (userId: string) => `exports/${userId}`;

export interface DataExportJob {
  exportId: string;
}

export interface DataExportServiceDeps {
  db: Database;
  storage: MediaStorage;
  jobs: JobQueue;
  mail: MailProvider;
  edition: Edition;
  log: Pick<ServiceLog, 'warn' | 'info'>;
  secret: string;
  publicUrl: string;
  /** Archives one address may ask for per day (accounts behind one address, a script). */
  perAddress: WindowLimiter;
  /** The user's open apps hear of it (the chats module's user events, on every replica). */
  publish(userId: string, event: UserEvent): Promise<void>;
  /** Where the archive is built before it goes to storage (default: the system's temporary folder). */
  tempDir?: string;
  now?: () => Date;
}

/**
 * "Download my data" (docs/accounts.md): an archive asked for once a day, built by a durable
 * job into a ZIP in media storage, announced in the app and by e-mail (a verified address),
 * downloaded through a signed link until it expires, then deleted.
 */
export class DataExportService {
  constructor(private readonly deps: DataExportServiceDeps) {}

  private now(): Date {
    return this.deps.now?.() ?? new Date();
  }

  private sign(id: string, exp: number): string {
    return createHmac('sha256', this.deps.secret).update(`data-export:${id}:${exp}`).digest('base64url');
  }

  /** The archive's download link, valid until it expires (no bearer token: an e-mail link works). */
  downloadPath(row: repo.DataExportRow): string | null {
    if (row.state !== 'ready' || !row.expiresAt) return null;
    const exp = Math.floor(row.expiresAt.getTime() / 1000);
    return `/api/profile/data_export/${row.id}/download?exp=${exp}&sig=${this.sign(row.id, exp)}`;
  }

  private present(row: repo.DataExportRow): DataExport {
    return presentExport(row, this.downloadPath(row), this.nextAllowed(row));
  }

  private nextAllowed(row: repo.DataExportRow | null): Date {
    if (!row || row.state === 'failed') return this.now();
    return new Date(row.createdAt.getTime() + DATA_EXPORT_EVERY_HOURS * 3600_000);
  }

  async status(userId: string): Promise<DataExportStatus> {
    const row = await repo.latestExport(this.deps.db, userId);
    return { export: row ? this.present(row) : null };
  }

  /**
   * Asks for a new archive: one a day per account (a failed one may be asked again), a few a
   * day per address; the earlier archive's file goes. 429 `rate_limited` with Retry-After.
   */
  async request(userId: string, address: string): Promise<DataExport> {
    const { db } = this.deps;
    const now = this.now();
    const since = new Date(now.getTime() - DATA_EXPORT_EVERY_HOURS * 3600_000);
    const recent = await repo.latestCountedExport(db, userId, since);
    if (recent) throw this.tooSoon(this.nextAllowed(recent), now);
    const wait = await this.deps.perAddress.take(address);
    if (wait > 0) throw this.tooSoon(new Date(now.getTime() + wait * 1000), now);
    // Two requests at once (two tabs, two replicas): one archive, the other answered 429.
    const row = await repo.insertExportUnlessRecent(db, userId, since);
    if (!row) {
      const other = await repo.latestCountedExport(db, userId, since);
      throw this.tooSoon(this.nextAllowed(other), now);
    }
    for (const older of await repo.olderFiles(db, userId, row.id)) {
      if (older.storageKey) await this.deps.storage.delete(older.storageKey).catch(() => undefined);
      await repo.markFileGone(db, older.id);
    }
    await this.deps.jobs.send<DataExportJob>(DATA_EXPORT_QUEUE, { exportId: row.id }, { singletonKey: row.id });
    return this.present(row);
  }

  private tooSoon(at: Date, now: Date): AppError {
    const seconds = Math.max(1, Math.ceil((at.getTime() - now.getTime()) / 1000));
    return new AppError('rate_limited', { status: 429, headers: { 'retry-after': String(seconds) } });
  }

  /**
   * The archive's file for a signed link: the signature, the expiry and the row's state all
   * agree, else 404 (an expired, replaced or forged link finds nothing).
   */
  async download(id: string, exp: string, sig: string): Promise<{ stream: Readable; size: number; filename: string }> {
    const expires = Number(exp);
    const expected = Buffer.from(this.sign(id, expires));
    const given = Buffer.from(sig);
    if (expected.length !== given.length || !timingSafeEqual(expected, given)) throw notFound();
    const now = this.now();
    if (expires * 1000 <= now.getTime()) throw notFound();
    const row = await repo.findExport(this.deps.db, id);
    if (!row || row.state !== 'ready' || !row.storageKey || !row.expiresAt || row.expiresAt <= now) throw notFound();
    if (Math.floor(row.expiresAt.getTime() / 1000) !== expires) throw notFound();
    const stat = await this.deps.storage.stat(row.storageKey);
    const stream = stat ? await this.deps.storage.stream(row.storageKey) : null;
    if (!stat || !stream) throw notFound();
    const day = (row.readyAt ?? row.createdAt).toISOString().slice(0, 10);
    return { stream, size: stat.size, filename: `${this.deps.edition.name.toLowerCase()}-data-${day}.zip` };
  }

  /** The job: builds the ZIP aside, stores it, marks it ready, and tells the user. */
  async run(job: DataExportJob, signal?: AbortSignal): Promise<void> {
    const { db, storage } = this.deps;
    const row = await repo.findExport(db, job.exportId);
    if (!row || row.state !== 'preparing') return; // done already, or the account is gone
    const dir = this.deps.tempDir ?? path.join(os.tmpdir(), 'reverie-exports');
    await fs.mkdir(dir, { recursive: true, mode: 0o700 });
    const file = path.join(dir, `${row.id}-${randomBytes(6).toString('hex')}.zip`);
    const zip = new ZipFileWriter(file);
    try {
      try {
        await writeArchive(zip, { db, storage, userId: row.userId, signal });
      } catch (error) {
        await zip.abort();
        throw error;
      }
      const size = await zip.finish();
      const key = `${dataExportPrefix(row.userId)}/${row.id}-${randomBytes(12).toString('hex')}.zip`;
      await storage.putFile(key, file, 'application/zip');
      const readyAt = this.now();
      const expiresAt = new Date(readyAt.getTime() + DATA_EXPORT_TTL_HOURS * 3600_000);
      if (!(await repo.markReady(db, row.id, { storageKey: key, size, readyAt, expiresAt }))) {
        await storage.delete(key).catch(() => undefined);
        return;
      }
      // Deleted when its time is up, by whichever replica runs the job then.
      await this.deps.jobs.send<DataExportJob>(
        DATA_EXPORT_EXPIRE_QUEUE,
        { exportId: row.id },
        { singletonKey: row.id, startAfterSeconds: DATA_EXPORT_TTL_HOURS * 3600 + 60 },
      );
      this.deps.log.info({ exportId: row.id, size }, 'a data export is ready');
      await this.announce(row.userId, 'ready');
      await this.sendReadyMail(row.id);
    } finally {
      await fs.rm(file, { force: true });
    }
  }

  /** The job failed for good: the row says so and the user's apps offer "try again". */
  async failed(job: DataExportJob): Promise<void> {
    const row = await repo.findExport(this.deps.db, job.exportId);
    if (!row) return;
    if (await repo.markFailed(this.deps.db, row.id)) await this.announce(row.userId, 'failed');
  }

  /** An archive's time is up: its file goes, the row stays (`expired`: the daily limit still counts it). */
  async expire(job: DataExportJob): Promise<void> {
    const row = await repo.findExport(this.deps.db, job.exportId);
    if (!row?.storageKey) return;
    if (row.expiresAt && row.expiresAt > this.now()) return;
    await this.deps.storage.delete(row.storageKey);
    await repo.markFileGone(this.deps.db, row.id);
  }

  private async announce(userId: string, state: 'ready' | 'failed'): Promise<void> {
    await this.deps
      .publish(userId, { type: 'data_export', state })
      .catch((error: unknown) => this.deps.log.warn({ err: error }, 'could not announce a data export'));
  }

  /** Only to a verified address: the link is as good as the archive. */
  private async sendReadyMail(exportId: string): Promise<void> {
    const row = await repo.findExport(this.deps.db, exportId);
    const account = row ? await repo.findAccount(this.deps.db, row.userId) : null;
    const link = row && this.downloadPath(row);
    if (!row || !account?.isEmailConfirmed || !link || !row.expiresAt) return;
    try {
      const rendered = renderReadyEmail({
        edition: this.deps.edition,
        locale: toLocale(account.locale) ?? 'en',
        name: account.name,
        url: new URL(link, this.deps.publicUrl).toString(),
        settingsUrl: new URL('/settings', this.deps.publicUrl).toString(),
        expiresAt: row.expiresAt,
      });
      await this.deps.mail.send({
        ...rendered,
        to: mailSafe(account.email),
        kind: 'data_export',
        userId: account.id,
        headers: {},
      });
    } catch (error) {
      this.deps.log.warn({ err: error, exportId }, 'the data export e-mail could not be sent');
    }
  }
}
