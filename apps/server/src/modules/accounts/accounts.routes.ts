import { createHash } from 'node:crypto';
import type { FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  ActivationParamsSchema,
  ApiErrorSchema,
  DeleteAccountBodySchema,
  DetailSchema,
  LoginBodySchema,
  PasswordChangeBodySchema,
  PasswordResetBodySchema,
  PasswordSetBodySchema,
  PasswordTokenParamsSchema,
  PreferencesBodySchema,
  PreferencesSchema,
  ProfileSchema,
  ProfileUpdateBodySchema,
  RefreshBodySchema,
  RegisterBodySchema,
  RegisteredSchema,
  ResendActivationQuerySchema,
  SupportBodySchema,
  SupportCreatedSchema,
  TokenPairSchema,
  TokenValidSchema,
  ValidateTokenBodySchema,
} from '@reverie/shared';
import { AppError, apiErrors } from '../../lib/errors.js';
import { WindowLimiter, type WindowCounter } from '../../providers/limits/index.js';
import { translate } from '../../lib/i18n.js';
import { currentUserId, requireUser } from '../../plugins/auth.js';
import { presentPreferences, presentRegistered } from './accounts.presenter.js';
import type { AccountsService } from './accounts.service.js';

export interface AccountsRoutesOptions {
  service: AccountsService;
  /** Requests one IP may make per minute to each sensitive endpoint. */
  ipPerMinute: number;
  /** Attempts per minute for one account. */
  accountPerMinute: number;
  /** The cluster's shared counters (providers/limits), for the per-account limits of mail-sending routes. */
  limits: WindowCounter;
  /** Support reports per account (a guest: per e-mail, else per address) and hour (SUPPORT_REPORTS_PER_HOUR). */
  supportPerHour: number;
  /** E-mail confirmation codes tried per account (a guest: per address) and hour (ACTIVATION_CHECKS_PER_HOUR). */
  activationChecksPerHour: number;
}

const rateLimited = (seconds: number) =>
  new AppError('rate_limited', { status: 429, headers: { 'retry-after': String(Math.max(1, seconds)) } });

const errors = apiErrors(400, 401, 409, 429);

const emailOf = (request: FastifyRequest) => {
  const body = request.body as { email?: unknown } | undefined;
  return typeof body?.email === 'string' ? body.email.trim().toLowerCase() : '';
};

/** Sign-up, log-in, tokens, verification, password recovery, profile and deletion. */
export const accountsRoutes: FastifyPluginAsyncZod<AccountsRoutesOptions> = async (app, options) => {
  const { service } = options;
  // Per IP, on every sensitive route (also /password/:token, outside /api).
  const perIp = { rateLimit: { max: options.ipPerMinute, timeWindow: 60_000, allowList: () => false } };
  // Per account, per minute. Log-in is keyed by account and IP (counted once for the cluster,
  // like every @fastify/rate-limit limit); failures across addresses are slowed down by the
  // shared log-in delays (AccountsService.login).
  const perAccount = (name: string, key: (request: FastifyRequest) => string) => {
    const limiter = app.createRateLimit({
      max: options.accountPerMinute,
      timeWindow: 60_000,
      allowList: () => false,
      keyGenerator: (r) => `${name}:${key(r)}`,
    });
    return async (request: FastifyRequest) => {
      const result = await limiter(request);
      if (!result.isAllowed && result.isExceeded) throw rateLimited(result.ttlInSeconds);
    };
  };
  // Mail-sending routes are keyed by account and counted by every replica together (the
  // shared counters), so N replicas do not send N times as much mail. The key is a hash: no
  // address is stored. The answer is the same whether the account exists or not.
  const shared = new WindowLimiter(options.limits, 'account', options.accountPerMinute, 60_000, { failClosed: true });
  const perAccountShared = (name: string, key: (request: FastifyRequest) => string) => {
    return async (request: FastifyRequest) => {
      const id = createHash('sha256')
        .update(`${name}:${key(request)}`)
        .digest('hex');
      const wait = await shared.take(id);
      if (wait > 0) throw rateLimited(wait);
    };
  };

  // Per account for the cluster, whatever the address: support reports (each read by a person)
  // and e-mail confirmation codes (guessing them). Keys are hashes: no address or e-mail is stored.
  const perHour = (name: string, max: number, key: (request: FastifyRequest) => string) => {
    const limiter = new WindowLimiter(options.limits, name, max, 3_600_000, { failClosed: true });
    return async (request: FastifyRequest) => {
      const wait = await limiter.take(createHash('sha256').update(key(request)).digest('hex'));
      if (wait > 0) throw rateLimited(wait);
    };
  };
  const supportLimit = perHour('support', options.supportPerHour, (r) =>
    r.userId ? `user:${r.userId}` : emailOf(r) ? `email:${emailOf(r)}` : `ip:${r.ip}`,
  );
  const activationLimit = perHour('activation', options.activationChecksPerHour, (r) =>
    r.userId ? `user:${r.userId}` : `ip:${r.ip}`,
  );

  // RFC 8058 one-click unsubscribe posts `List-Unsubscribe=One-Click` as a form.
  app.addContentTypeParser('application/x-www-form-urlencoded', { parseAs: 'string' }, (_request, body, done) => {
    done(null, Object.fromEntries(new URLSearchParams(body as string)));
  });

  app.post(
    '/api/register',
    {
      config: perIp,
      preHandler: perAccountShared('register', emailOf),
      schema: {
        tags: ['accounts'],
        summary: 'Create an account',
        body: RegisterBodySchema,
        response: { 201: RegisteredSchema, ...errors },
      },
    },
    async (request, reply) => {
      const user = await service.register(request.body, request.locale);
      return reply.status(201).send(presentRegistered(user));
    },
  );

  app.post(
    '/api/token',
    {
      config: perIp,
      preHandler: perAccount('login', (r) => `${emailOf(r)}|${r.ip}`),
      schema: {
        tags: ['accounts'],
        summary: 'Log in: access and refresh tokens',
        body: LoginBodySchema,
        response: { 200: TokenPairSchema, ...errors },
      },
    },
    async (request) => service.login(request.body.email, request.body.password, request.locale),
  );

  app.post(
    '/api/token/refresh',
    {
      config: perIp,
      schema: {
        tags: ['accounts'],
        summary: 'Rotate the refresh token',
        body: RefreshBodySchema,
        response: { 200: TokenPairSchema, ...errors },
      },
    },
    async (request) => service.refresh(request.body.refresh),
  );

  app.post(
    '/api/token/revoke',
    {
      schema: {
        tags: ['accounts'],
        summary: 'Log out',
        body: RefreshBodySchema,
        response: { 204: z.null(), ...errors },
      },
    },
    async (request, reply) => {
      await service.revoke(request.body.refresh, request.userId ?? null);
      return reply.status(204).send(null);
    },
  );

  app.get(
    '/api/profile',
    {
      preHandler: requireUser,
      schema: {
        tags: ['accounts'],
        summary: 'The signed-in user',
        response: { 200: ProfileSchema, 401: ApiErrorSchema },
      },
    },
    async (request) => service.presentProfile(await service.requireUser(currentUserId(request))),
  );

  app.patch(
    '/api/profile/update',
    {
      preHandler: requireUser,
      schema: {
        tags: ['accounts'],
        summary: 'Change name and age',
        body: ProfileUpdateBodySchema,
        response: { 200: ProfileSchema, ...errors },
      },
    },
    async (request) => service.presentProfile(await service.updateProfile(currentUserId(request), request.body)),
  );

  app.get(
    '/api/profile/preferences',
    {
      preHandler: requireUser,
      schema: {
        tags: ['accounts'],
        summary: 'Language, interests, marketing mail',
        response: { 200: PreferencesSchema, 401: ApiErrorSchema },
      },
    },
    async (request) => presentPreferences(await service.requireUser(currentUserId(request))),
  );

  app.patch(
    '/api/profile/preferences',
    {
      preHandler: requireUser,
      schema: {
        tags: ['accounts'],
        summary: 'Change language, interests, marketing mail',
        body: PreferencesBodySchema,
        response: { 200: PreferencesSchema, ...errors },
      },
    },
    async (request) => presentPreferences(await service.updatePreferences(currentUserId(request), request.body)),
  );

  app.delete(
    '/api/profile',
    {
      config: perIp,
      // Signed in first (401 before the body's 400), then counted per account.
      preValidation: requireUser,
      preHandler: perAccount('password-check', (r) => r.userId ?? r.ip),
      schema: {
        tags: ['accounts'],
        summary: 'Delete all data of the user (with the account password)',
        description:
          "The password confirms it (403 `wrong_password`; failures count with the log-in's). A running subscription is cancelled first; if the provider refuses, nothing is deleted (502).",
        body: DeleteAccountBodySchema,
        response: { 204: z.null(), ...errors, 403: ApiErrorSchema, 502: ApiErrorSchema },
      },
    },
    async (request, reply) => {
      await service.deleteOwnAccount(currentUserId(request), request.body.password, request.locale);
      return reply.status(204).send(null);
    },
  );

  app.post(
    '/api/profile/password',
    {
      config: perIp,
      // Signed in first (401 before the body's 400), then counted per account.
      preValidation: requireUser,
      preHandler: perAccount('password-check', (r) => r.userId ?? r.ip),
      schema: {
        tags: ['accounts'],
        summary: 'Change the password (signs out every other session)',
        description:
          "The current password confirms it (403 `wrong_password`; failures count with the log-in's). Every other session of the user ends at once on every replica; this one goes on.",
        body: PasswordChangeBodySchema,
        response: { 200: DetailSchema, ...errors, 403: ApiErrorSchema },
      },
    },
    async (request) => {
      await service.changePassword(currentUserId(request), request.sessionId!, request.body, request.locale);
      return { detail: translate(request.locale, 'settings.password_changed') };
    },
  );

  app.get(
    '/api/activate/:code',
    {
      config: perIp,
      preHandler: activationLimit,
      schema: {
        tags: ['accounts'],
        summary: 'Confirm the e-mail',
        params: ActivationParamsSchema,
        response: { 200: DetailSchema, ...errors },
      },
    },
    async (request) => {
      await service.activate(request.params.code, request.userId ?? null);
      return { detail: translate(request.locale, 'auth.email_confirmed') };
    },
  );

  app.get(
    '/api/resend_activation',
    {
      config: perIp,
      preHandler: [requireUser, perAccountShared('resend', (r) => r.userId ?? r.ip)],
      schema: {
        tags: ['accounts'],
        summary: 'Send the verification mail (again with force=1)',
        querystring: ResendActivationQuerySchema,
        response: { 200: DetailSchema.extend({ sent: z.boolean() }), ...errors },
      },
    },
    async (request) => {
      const force = request.query.force === '1' || request.query.force === 'true';
      const { sent } = await service.resendActivation(currentUserId(request), force);
      return {
        detail: translate(request.locale, sent ? 'auth.verification_sent' : 'auth.verification_not_sent'),
        sent,
      };
    },
  );

  app.post(
    '/api/password_reset',
    {
      config: perIp,
      preHandler: perAccountShared('reset', emailOf),
      schema: {
        tags: ['accounts'],
        summary: 'Mail a password reset link',
        body: PasswordResetBodySchema,
        response: { 200: DetailSchema, ...errors },
      },
    },
    async (request) => {
      service.requestPasswordReset(request.body.email);
      return { detail: translate(request.locale, 'auth.reset_sent') };
    },
  );

  app.post(
    '/api/password_reset/validate_token',
    {
      config: perIp,
      schema: {
        tags: ['accounts'],
        summary: 'Check a reset link',
        body: ValidateTokenBodySchema,
        response: { 200: TokenValidSchema, ...errors },
      },
    },
    async (request) => {
      await service.validateResetToken(request.body.token);
      return { valid: true as const };
    },
  );

  app.post(
    '/password/:token',
    {
      config: perIp,
      schema: {
        tags: ['accounts'],
        summary: 'Set a new password',
        params: PasswordTokenParamsSchema,
        body: PasswordSetBodySchema,
        response: { 200: DetailSchema, ...errors },
      },
    },
    async (request) => {
      await service.resetPassword(request.params.token, request.body.password);
      return { detail: translate(request.locale, 'auth.password_changed') };
    },
  );

  app.post(
    '/api/email/unsubscribe',
    {
      config: perIp,
      schema: {
        tags: ['accounts'],
        summary: 'Stop marketing mail (signed token; RFC 8058 one-click)',
        querystring: z.object({ token: z.string().max(500).optional() }),
        body: z.looseObject({ token: z.string().max(500, 'invalid_value').optional() }).optional(),
        response: { 200: DetailSchema, ...errors },
      },
    },
    async (request) => {
      const token = request.body?.token ?? request.query.token;
      if (!token) {
        throw new AppError('validation_error', {
          status: 400,
          errors: { token: [translate(request.locale, 'validation.required')] },
        });
      }
      await service.unsubscribe(token);
      return { detail: translate(request.locale, 'auth.unsubscribed') };
    },
  );

  app.post(
    '/api/support',
    {
      config: { rateLimit: { max: 10, timeWindow: 60_000 } },
      preHandler: supportLimit,
      schema: {
        tags: ['accounts'],
        summary: 'Report an issue',
        body: SupportBodySchema,
        response: { 201: SupportCreatedSchema, ...errors },
      },
    },
    async (request, reply) => {
      const id = await service.createSupportReport(request.userId ?? null, request.body);
      return reply.status(201).send({ id });
    },
  );
};
