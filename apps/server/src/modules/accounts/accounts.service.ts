import { createHash, createHmac, randomBytes, randomUUID, timingSafeEqual } from 'node:crypto';
import { hash, verify } from '@node-rs/argon2';
import {
  REFRESH_GRACE_S,
  REFRESH_TOKEN_TTL_S,
  type Edition,
  type Locale,
  type PreferencesBody,
  type Profile,
  type ProfileUpdateBody,
  type RegisterBody,
  type TokenPair,
} from '@reverie/shared';
import type { FastifyBaseLogger } from 'fastify';
import type { MediaStorage } from '../../providers/storage/storage.js';
import type { Database } from '../../db/client.js';
import { AppError } from '../../lib/errors.js';
import { translate } from '../../lib/i18n.js';
import { mailSafe } from '../../lib/templates.js';
import { SharedLimiter, type DelayPolicy } from '../../lib/shared-limiter.js';
import type { TokenSigner } from '../../lib/tokens.js';
import type { MailProvider } from '../../providers/mail/index.js';
import type { BillingService } from '../billing/index.js';
import { MARKETING_KINDS, renderEmail, type EmailKind } from './accounts.emails.js';
import { presentProfile } from './accounts.presenter.js';
import * as repo from './accounts.repository.js';
import type { UserRow } from './accounts.repository.js';
import { UserDataDeletion, type UserDataDeleter, type UserFileDeleter } from './user-data.js';
import type { Sessions } from './sessions.js';

/** OWASP password storage cheat sheet: argon2id, m=19 MiB, t=2, p=1. */
const ARGON2_OPTIONS = { algorithm: 2 /* Argon2id */, memoryCost: 19456, timeCost: 2, parallelism: 1 } as const;

/** Hashes a password with argon2id (OWASP parameters). */
export const hashPassword = (password: string) => hash(password, ARGON2_OPTIONS);

const sha256 = (value: string) => createHash('sha256').update(value).digest('hex');
/** Opaque tokens shaped like `a.b.c` so the web client's stored-token check accepts them. */
const newOpaqueToken = (prefix: string) =>
  `${prefix}.${randomBytes(9).toString('base64url')}.${randomBytes(32).toString('base64url')}`;

export interface AccountsServiceDeps {
  db: Database;
  tokens: TokenSigner;
  /** Ends sessions at once on every replica (log-out, reuse, password reset, ban, deletion). */
  sessions: Sessions;
  mail: MailProvider;
  edition: Edition;
  publicUrl: string;
  /** Signs unsubscribe links and derives the successor of a rotated refresh token. */
  secret: string;
  log: FastifyBaseLogger;
  resetTtlMinutes: number;
  verificationTtlDays: number;
  dataDir: string;
  /** Media storage, so the user's files go with the user. */
  storage?: MediaStorage;
  /** Extra per-table deleters other modules plug in (run inside the deletion transaction). */
  deleters?: UserDataDeleter[];
  fileDeleters?: UserFileDeleter[];
  /**
   * The billing module: the profile's billing part, and a running subscription cancelled
   * before an account is deleted (so a deleted account is never charged again).
   */
  billing?: AccountsBilling;
  /**
   * Failed log-ins of one account, from any address, counted by every replica in the
   * `rate_limits` table (docs/accounts.md "Log-in limits").
   */
  loginDelays?: DelayPolicy;
}

/** What accounts needs of the billing module. */
export type AccountsBilling = Pick<BillingService, 'cancelSubscription' | 'getBillingProfile'>;

/** Log-in delays when the settings give none: 5 free failures, then 30 s doubling up to 15 min. */
export const DEFAULT_LOGIN_DELAYS: DelayPolicy = {
  freeFailures: 5,
  baseDelayS: 30,
  maxDelayS: 900,
  forgetAfterS: 3600,
};

/** The limiter key of an account: a hash of the normalised e-mail (no address in the table). */
const loginKey = (email: string) => sha256(email.trim().toLowerCase());

/** Everything a person does with their account (API.md "Accounts and tokens"). */
export class AccountsService {
  /** A real hash to verify against when the account does not exist (same timing). */
  private dummyHash: Promise<string>;
  private readonly loginLimiter: SharedLimiter;
  /** Work that goes on after the answer (password reset mail); `idle()` waits for it. */
  private readonly background = new Set<Promise<void>>();
  private readonly userData: UserDataDeletion;

  constructor(private readonly deps: AccountsServiceDeps) {
    this.userData = new UserDataDeletion(deps);
    this.dummyHash = hash('not-a-real-password', ARGON2_OPTIONS);
    this.loginLimiter = new SharedLimiter(deps.db, 'login');
  }

  /** Resolves when the background work started so far is done (shutdown, tests). */
  async idle(): Promise<void> {
    while (this.background.size) await Promise.all([...this.background]);
  }

  /** Runs work after the answer; a failure is logged (without personal data), never thrown. */
  private runInBackground(what: string, work: () => Promise<void>): void {
    const task = work()
      .catch((error: unknown) => this.deps.log.error({ err: error }, `${what} failed`))
      .finally(() => this.background.delete(task));
    this.background.add(task);
  }

  hashPassword(password: string): Promise<string> {
    return hashPassword(password);
  }

  async register(body: RegisterBody, locale: Locale): Promise<UserRow> {
    const { db } = this.deps;
    const email = body.email.trim();
    const existing = await repo.findUserByEmail(db, email);
    const taken = () =>
      new AppError('email_taken', {
        status: 409,
        detail: translate(locale, 'errors.email_taken'),
        errors: { email: [translate(locale, 'errors.email_taken')] },
      });
    if (existing) throw taken();
    const user = await repo.insertUser(db, {
      username: body.username,
      name: body.username,
      email,
      passwordHash: await this.hashPassword(body.password),
      locale: body.locale ?? locale,
    });
    if (!user) throw taken();
    await this.sendVerification(user);
    return user;
  }

  /**
   * Log-in. Failures are counted per account across every address and replica: after
   * `freeFailures` of them the account's log-in pauses for a delay that doubles with each
   * further failure (429 + Retry-After), even for the right password; a success forgets them.
   * Unknown e-mails are counted the same way, so the answers never reveal an account.
   */
  async login(email: string, password: string, locale: Locale): Promise<TokenPair> {
    const key = loginKey(email);
    const policy = this.deps.loginDelays ?? DEFAULT_LOGIN_DELAYS;
    const waitS = await this.loginLimiter.blockedFor(key);
    if (waitS > 0) throw loginLocked(locale, waitS);
    const user = await repo.findUserByEmail(this.deps.db, email);
    const ok = user
      ? await verify(user.passwordHash, password).catch(() => false)
      : await verify(await this.dummyHash, password).then(() => false);
    if (!user || !ok) {
      const { blockedForS } = await this.loginLimiter.recordFailure(key, policy);
      if (blockedForS > 0) throw loginLocked(locale, blockedForS);
      const text = translate(locale, 'errors.invalid_credentials');
      throw new AppError('invalid_credentials', { status: 401, detail: text, errors: { password: [text] } });
    }
    await this.loginLimiter.reset(key);
    // Only someone who knows the password learns that the account is banned, and why.
    if (user.bannedAt) {
      const detail = user.banReason
        ? translate(locale, 'errors.account_banned_reason', { reason: user.banReason })
        : translate(locale, 'errors.account_banned');
      throw new AppError('account_banned', { status: 403, detail });
    }
    const familyId = randomUUID();
    const refresh = newOpaqueToken('rt');
    await repo.insertRefreshToken(this.deps.db, {
      userId: user.id,
      familyId,
      tokenHash: sha256(refresh),
      expiresAt: new Date(Date.now() + REFRESH_TOKEN_TTL_S * 1000),
    });
    const access = await this.deps.tokens.signAccess({ sub: user.id, role: user.role, sid: familyId });
    return { access, refresh };
  }

  /**
   * The refresh token that follows `token`: derived from it under the server secret, so that
   * every replica answers a repeated rotation with the same pair without storing secrets.
   */
  private successorOf(token: string): string {
    const mac = (label: string) => createHmac('sha256', this.deps.secret).update(`${label}:${token}`).digest();
    return `rt.${mac('refresh-successor-id').subarray(0, 9).toString('base64url')}.${mac('refresh-successor').toString('base64url')}`;
  }

  /**
   * Rotates a refresh token. Presented again within REFRESH_GRACE_S of its rotation (several
   * tabs refreshing at once) it answers the same pair: the successor is derived from the token
   * and the access token is signed with the rotation time stored in the database. Presented
   * later it means theft: the whole family is revoked.
   */
  async refresh(token: string): Promise<TokenPair> {
    const { db } = this.deps;
    const invalid = () => new AppError('invalid_token', { status: 401, detail: 'Token is invalid or expired' });
    const row = await repo.findRefreshToken(db, sha256(token));
    if (!row || row.revokedAt || row.expiresAt.getTime() <= Date.now()) throw invalid();
    const user = await repo.findUserById(db, row.userId);
    if (!user || user.bannedAt) throw invalid();
    const successor = this.successorOf(token);
    let rotatedAt = row.usedAt;
    let rotatedHere = false;
    if (!rotatedAt) {
      rotatedAt = await repo.rotateRefreshToken(db, row, {
        tokenHash: sha256(successor),
        expiresAt: new Date(Date.now() + REFRESH_TOKEN_TTL_S * 1000),
      });
      rotatedHere = rotatedAt !== null;
      if (!rotatedAt) {
        // Another request rotated (or revoked) it meanwhile.
        const again = await repo.findRefreshToken(db, row.tokenHash);
        if (!again || again.revokedAt || !again.usedAt) throw invalid();
        rotatedAt = again.usedAt;
      }
    }
    if (!rotatedHere && Date.now() - rotatedAt.getTime() > REFRESH_GRACE_S * 1000) {
      await repo.revokeRefreshFamily(db, row.userId, row.familyId);
      await this.deps.sessions.endSession(row.familyId);
      this.deps.log.warn({ userId: row.userId }, 'refresh token reused: family revoked');
      throw invalid();
    }
    const access = await this.deps.tokens.signAccess(
      { sub: user.id, role: user.role, sid: row.familyId },
      { issuedAt: Math.floor(rotatedAt.getTime() / 1000) },
    );
    return { access, refresh: successor };
  }

  /** Log-out: revokes the token's family. Someone else's token is left alone. */
  async revoke(token: string, requesterId: string | null): Promise<void> {
    const row = await repo.findRefreshToken(this.deps.db, sha256(token));
    if (!row) return;
    if (requesterId && requesterId !== row.userId) return;
    await repo.revokeRefreshFamily(this.deps.db, row.userId, row.familyId);
    await this.deps.sessions.endSession(row.familyId);
  }

  async requireUser(userId: string): Promise<UserRow> {
    const user = await repo.findUserById(this.deps.db, userId);
    if (!user) throw new AppError('unauthorized', { status: 401 });
    return user;
  }

  /** The Profile of API.md: the account with the billing part (balance, premium, next claim). */
  async presentProfile(user: UserRow): Promise<Profile> {
    return presentProfile(user, await this.deps.billing?.getBillingProfile(user.id));
  }

  async updateProfile(userId: string, body: ProfileUpdateBody): Promise<UserRow> {
    await this.requireUser(userId);
    const user = await repo.updateUser(this.deps.db, userId, {
      name: body.name,
      ...(body.age !== undefined ? { age: body.age } : {}),
    });
    if (!user) throw new AppError('profile_update_error', { status: 400 });
    return user;
  }

  async updatePreferences(userId: string, body: PreferencesBody): Promise<UserRow> {
    await this.requireUser(userId);
    const user = await repo.updateUser(this.deps.db, userId, {
      ...(body.locale ? { locale: body.locale } : {}),
      ...(body.interests ? { interests: [...new Set(body.interests)] } : {}),
      ...(body.marketing_emails !== undefined ? { marketingEmails: body.marketing_emails } : {}),
      ...(body.creator_page_hidden !== undefined ? { creatorPageHidden: body.creator_page_hidden } : {}),
    });
    return user!;
  }

  /** Confirms the e-mail of the code's owner. A signed-in user may only confirm their own. */
  async activate(code: string, requesterId: string | null): Promise<void> {
    const { db } = this.deps;
    const row = await repo.findLiveEmailToken(db, 'verify', sha256(code));
    if (!row || (requesterId && requesterId !== row.userId)) throw new AppError('invalid_code', { status: 400 });
    if (!(await repo.consumeEmailToken(db, row.id))) throw new AppError('invalid_code', { status: 400 });
    const before = await repo.findUserById(db, row.userId);
    if (!before) throw new AppError('invalid_code', { status: 400 });
    if (!before.isEmailConfirmed) {
      const user = await repo.updateUser(db, row.userId, { isEmailConfirmed: true });
      if (user) await this.sendEmail(user, 'welcome', this.link('/'));
    }
  }

  /**
   * Sends a verification mail when the e-mail is unconfirmed and none was sent before;
   * `force` (the resend button) sends another one anyway.
   */
  async resendActivation(userId: string, force: boolean): Promise<{ sent: boolean }> {
    const user = await this.requireUser(userId);
    if (user.isEmailConfirmed) return { sent: false };
    if (user.verificationSentAt && !force) return { sent: false };
    await this.sendVerification(user);
    return { sent: true };
  }

  private async sendVerification(user: UserRow): Promise<void> {
    const code = randomBytes(24).toString('base64url');
    await repo.insertEmailToken(this.deps.db, {
      userId: user.id,
      purpose: 'verify',
      tokenHash: sha256(code),
      expiresAt: new Date(Date.now() + this.deps.verificationTtlDays * 86_400_000),
    });
    await repo.updateUser(this.deps.db, user.id, { verificationSentAt: new Date() });
    await this.sendEmail(user, 'verify', this.link(`/verify?code=${encodeURIComponent(code)}`), {
      days: this.deps.verificationTtlDays,
    });
  }

  /**
   * Always succeeds at once: the lookup, the link and the mail happen after the answer, so
   * neither the answer nor its timing reveals whether the account exists.
   */
  requestPasswordReset(email: string): void {
    this.runInBackground('a password reset', () => this.sendPasswordReset(email));
  }

  private async sendPasswordReset(email: string): Promise<void> {
    const { db } = this.deps;
    const user = await repo.findUserByEmail(db, email);
    const token = randomBytes(24).toString('base64url');
    if (!user) return;
    // A new link replaces the old ones atomically: two fast requests leave one valid link.
    const stored = await repo.replaceEmailToken(db, {
      userId: user.id,
      purpose: 'reset',
      tokenHash: sha256(token),
      expiresAt: new Date(Date.now() + this.deps.resetTtlMinutes * 60_000),
    });
    if (!stored) return;
    await this.sendEmail(user, 'reset', this.link(`/password?token=${encodeURIComponent(token)}`), {
      minutes: this.deps.resetTtlMinutes,
    });
  }

  async validateResetToken(token: string): Promise<void> {
    const row = await repo.findLiveEmailToken(this.deps.db, 'reset', sha256(token));
    if (!row) throw new AppError('invalid_token', { status: 400, detail: 'Invalid or expired link' });
  }

  /** Sets the new password once per link and signs out every device. */
  async resetPassword(token: string, password: string): Promise<void> {
    const { db } = this.deps;
    const row = await repo.findLiveEmailToken(db, 'reset', sha256(token));
    if (!row || !(await repo.consumeEmailToken(db, row.id))) {
      throw new AppError('invalid_token', { status: 400, detail: 'Invalid or expired link' });
    }
    await repo.updateUser(db, row.userId, { passwordHash: await this.hashPassword(password) });
    await repo.revokeAllRefreshTokens(db, row.userId);
    await this.deps.sessions.endUserSessions(row.userId);
  }

  /** The signed token of every unsubscribe link: `<user id>.<HMAC>`; it never expires. */
  unsubscribeToken(userId: string): string {
    const sig = createHmac('sha256', this.deps.secret).update(`unsubscribe:${userId}`).digest('base64url');
    return `${userId}.${sig}`;
  }

  async unsubscribe(token: string): Promise<void> {
    const [userId = '', sig = ''] = token.split('.');
    const expected = this.unsubscribeToken(userId).split('.')[1]!;
    const valid = sig.length === expected.length && timingSafeEqual(Buffer.from(sig), Buffer.from(expected));
    if (!valid || !/^[0-9a-f-]{36}$/i.test(userId))
      throw new AppError('invalid_token', { status: 400, detail: 'Invalid or expired link' });
    // An account that no longer exists is already unsubscribed.
    await repo.updateUser(this.deps.db, userId, { marketingEmails: false });
  }

  /**
   * A support report. A guest's answer goes to the address they typed; a signed-in user's to
   * their account's verified address (read when the answer is sent), so the typed `email` of a
   * signed-in user is not kept: no one can have the operator's answer sent elsewhere (issue 27).
   */
  async createSupportReport(
    userId: string | null,
    body: { email?: string; subject: string; text: string },
  ): Promise<string> {
    const user = userId ? await repo.findUserById(this.deps.db, userId) : null;
    return repo.insertSupportReport(this.deps.db, {
      userId: user?.id ?? null,
      email: user ? null : (body.email ?? null),
      subject: body.subject,
      text: body.text,
    });
  }

  /**
   * The signed-in user's own password, checked before a change that cannot be undone or that
   * locks others out (issue 27: "Delete all data", "Change password"). Failures count with the
   * log-in's failures of the account (`SharedLimiter` 'login', every replica together): the
   * check is no way around the log-in's pauses (429 `login_locked`). A wrong password is 403
   * `wrong_password` with the field's error. Every account has a password (there is no
   * passwordless sign-in).
   */
  private async checkOwnPassword(user: UserRow, password: string, field: string, locale: Locale): Promise<void> {
    const key = loginKey(user.email);
    const waitS = await this.loginLimiter.blockedFor(key);
    if (waitS > 0) throw loginLocked(locale, waitS);
    if (await verify(user.passwordHash, password).catch(() => false)) return;
    const { blockedForS } = await this.loginLimiter.recordFailure(key, this.deps.loginDelays ?? DEFAULT_LOGIN_DELAYS);
    if (blockedForS > 0) throw loginLocked(locale, blockedForS);
    const text = translate(locale, 'errors.wrong_password');
    throw new AppError('wrong_password', { status: 403, detail: text, errors: { [field]: [text] } });
  }

  /** "Delete all data" by the user: only with the account's password (`checkOwnPassword`). */
  async deleteOwnAccount(userId: string, password: string, locale: Locale): Promise<void> {
    const user = await this.requireUser(userId);
    await this.checkOwnPassword(user, password, 'password', locale);
    await this.deleteAllData(user.id);
  }

  /**
   * "Change password": the current one checked, the new one set; every other session of the
   * user ends (their refresh tokens revoked, their access tokens refused on every replica at
   * once, as at log-out) and this one (`sessionId`) goes on.
   */
  async changePassword(
    userId: string,
    sessionId: string,
    body: { current_password: string; new_password: string },
    locale: Locale,
  ): Promise<void> {
    const user = await this.requireUser(userId);
    await this.checkOwnPassword(user, body.current_password, 'current_password', locale);
    const { db } = this.deps;
    await repo.updateUser(db, user.id, { passwordHash: await this.hashPassword(body.new_password) });
    await repo.revokeAllRefreshTokens(db, user.id, { exceptFamily: sessionId });
    await this.deps.sessions.endUserSessions(user.id);
  }

  /**
   * Deletes the account and everything it owns. `extra` deleters run inside the deletion's
   * transaction too (the admin console records the deletion in its audit log there).
   */
  async deleteAllData(userId: string, extra: UserDataDeleter[] = []): Promise<void> {
    const user = await this.requireUser(userId);
    await this.cancelSubscriptionBeforeDelete(user.id);
    await this.userData.delete(user, extra);
    await this.deps.sessions.endUserSessions(user.id);
  }

  /**
   * A running subscription is cancelled before anything is deleted; if the provider refuses,
   * nothing is deleted (502) and the user keeps the account and can retry.
   */
  private async cancelSubscriptionBeforeDelete(userId: string): Promise<void> {
    if (!this.deps.billing) return;
    try {
      await this.deps.billing.cancelSubscription(userId);
    } catch (error) {
      this.deps.log.error({ err: error, userId }, 'could not cancel the subscription of an account being deleted');
      throw new AppError('subscription_cancel_failed', {
        status: 502,
        detail: 'The subscription could not be cancelled. Nothing was deleted; please try again.',
      });
    }
  }

  private link(pathAndQuery: string): string {
    return new URL(pathAndQuery, this.deps.publicUrl).toString();
  }

  /** Renders and sends; a mail failure is logged, never shown as a failed request. */
  private async sendEmail(
    user: UserRow,
    kind: EmailKind,
    actionUrl: string,
    vars: Record<string, string | number> = {},
  ): Promise<void> {
    if (MARKETING_KINDS.has(kind) && !user.marketingEmails) return;
    const token = this.unsubscribeToken(user.id);
    const unsubscribeUrl = this.link(`/email/unsubscribe?token=${encodeURIComponent(token)}`);
    const oneClickUrl = this.link(`/api/email/unsubscribe?token=${encodeURIComponent(token)}`);
    const locale = (user.locale as Locale) ?? 'en';
    const rendered = renderEmail({
      kind,
      locale,
      edition: this.deps.edition,
      name: user.name,
      actionUrl,
      unsubscribeUrl,
      vars,
    });
    try {
      await this.deps.mail.send({
        to: mailSafe(user.email),
        ...rendered,
        kind,
        userId: user.id,
        headers: {
          'List-Unsubscribe': `<${oneClickUrl}>, <mailto:${this.deps.edition.supportEmail}?subject=unsubscribe>`,
          'List-Unsubscribe-Post': 'List-Unsubscribe=One-Click',
        },
      });
    } catch (error) {
      this.deps.log.error({ err: error, kind }, 'sending e-mail failed');
    }
  }
}

/** 429 for an account whose log-in is paused; the text says the right password waits too. */
function loginLocked(locale: Locale, seconds: number): AppError {
  const minutes = Math.max(1, Math.ceil(seconds / 60));
  return new AppError('login_locked', {
    status: 429,
    detail: translate(locale, 'errors.login_locked', { minutes }),
    headers: { 'retry-after': String(seconds) },
  });
}
