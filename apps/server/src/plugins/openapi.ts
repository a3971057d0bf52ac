import swagger from '@fastify/swagger';
import swaggerUi from '@fastify/swagger-ui';
import fp from 'fastify-plugin';
import { jsonSchemaTransform, jsonSchemaTransformObject } from 'fastify-type-provider-zod';

/** OpenAPI generated from the routes' zod schemas, at /api/openapi.json and /api/docs. */
export const openApiPlugin = fp<{ appName: string; version: string }>(
  async (app, options) => {
    await app.register(swagger, {
      openapi: {
        openapi: '3.1.0',
        info: {
          title: `${options.appName} API`,
          description: 'The HTTP contract of the web app. Errors share one shape: `{detail, code, errors?}`.',
          version: options.version,
        },
        components: {
          securitySchemes: {
            bearer: { type: 'http', scheme: 'bearer', bearerFormat: 'JWT' },
          },
        },
      },
      transform: jsonSchemaTransform,
      transformObject: jsonSchemaTransformObject,
    });
    await app.register(swaggerUi, {
      routePrefix: '/api/docs',
      staticCSP: true,
      // Swagger UI sets inline styles on its widgets.
      transformStaticCSP: (header) => header.replace(/style-src ([^;]*)/, "style-src $1 'unsafe-inline'"),
      uiConfig: { docExpansion: 'list', deepLinking: true },
    });
    app.get('/api/openapi.json', { schema: { hide: true } }, async () => app.swagger());
  },
  { name: 'openapi' },
);
