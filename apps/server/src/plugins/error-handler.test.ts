import Fastify from 'fastify';
import { serializerCompiler, validatorCompiler, type ZodTypeProvider } from 'fastify-type-provider-zod';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { AppError } from '../lib/errors.js';
import { errorHandlerPlugin } from './error-handler.js';
import { requestContextPlugin } from './request-context.js';

async function appWithRoutes() {
  const app = Fastify().withTypeProvider<ZodTypeProvider>();
  app.setValidatorCompiler(validatorCompiler);
  app.setSerializerCompiler(serializerCompiler);
  await app.register(requestContextPlugin);
  await app.register(errorHandlerPlugin);
  app.get('/boom', async () => {
    throw new Error('connection to db-internal.local:5432 failed: password "hunter2"');
  });
  app.get('/paid', async () => {
    throw new AppError('insufficient_desires', { status: 402, detail: 'Not enough desires' });
  });
  app.get('/catalogue', async () => {
    throw new AppError('inappropriate_content');
  });
  app.post(
    '/form',
    { schema: { body: z.object({ username: z.string().min(1, 'username_required').max(100, 'username_max') }) } },
    async () => ({ ok: true }),
  );
  return app;
}

describe('error handler', async () => {
  const app = await appWithRoutes();

  it('never leaks internals in a 500', async () => {
    const res = await app.inject('/boom');
    expect(res.statusCode).toBe(500);
    expect(res.json()).toEqual({ detail: 'Internal Server Error', code: 'internal_error' });
    expect(res.body).not.toContain('hunter2');
  });

  it('keeps typed errors with their status and code', async () => {
    expect((await app.inject('/paid')).json()).toEqual({ detail: 'Not enough desires', code: 'insufficient_desires' });
    const res = await app.inject({ url: '/catalogue', headers: { 'accept-language': 'en' } });
    expect(res.statusCode).toBe(422);
    expect(res.json()).toEqual({ detail: 'Inappropriate content', code: 'inappropriate_content' });
  });

  it('translates catalogue texts and field messages by Accept-Language', async () => {
    const de = await app.inject({ url: '/catalogue', headers: { 'accept-language': 'de' } });
    expect(de.json().detail).not.toBe('Inappropriate content');
    const en = await app.inject({ method: 'POST', url: '/form', payload: { username: 'x'.repeat(101) } });
    expect(en.statusCode).toBe(400);
    expect(en.json().errors).toEqual({ username: ['Username must contain no more than 100 characters'] });
    const ru = await app.inject({
      method: 'POST',
      url: '/form',
      headers: { 'accept-language': 'ru' },
      payload: { username: '' },
    });
    expect(ru.json().errors.username[0]).not.toBe('Please enter your username');
    expect(ru.json().errors.username[0]).toMatch(/[а-яё]/i);
  });
});
