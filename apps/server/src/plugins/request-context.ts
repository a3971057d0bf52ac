import fp from 'fastify-plugin';
import { negotiateLocale, type Locale } from '@reverie/shared';

declare module 'fastify' {
  interface FastifyRequest {
    /** The interface language for server-made texts, from `Accept-Language`. */
    locale: Locale;
    /** The authenticated user's id, set by the auth plugin; null for guests. */
    userId: string | null;
  }
}

/** Reads the request's language once, for errors and e-mails in the user's language. */
export const requestContextPlugin = fp(
  async (app) => {
    app.decorateRequest('locale', 'en');
    app.decorateRequest('userId', null);
    app.addHook('onRequest', (request, _reply, done) => {
      request.locale = negotiateLocale(request.headers['accept-language']);
      done();
    });
  },
  { name: 'request-context' },
);
