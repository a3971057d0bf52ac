import type { LoggerOptions } from 'pino';
import type { Config } from '../config.js';
import { scrubText, serializeError, serializeRequest } from './redact.js';

/**
 * Pino options: JSON lines in production, pretty lines on a terminal during development.
 * Nothing personal or secret reaches a line (lib/redact.ts): errors lose their query values,
 * request URLs their signatures, tokens and codes, every text its e-mail addresses.
 */
export function loggerOptions(config: Config): LoggerOptions {
  const pretty = config.LOG_PRETTY ?? (!config.isProduction && process.stdout.isTTY);
  return {
    level: config.LOG_LEVEL,
    redact: {
      paths: [
        'req.headers.authorization',
        'req.headers.cookie',
        'email',
        'to',
        '*.email',
        '*.password',
        '*.passwordHash',
        '*.password_hash',
        '*.refresh',
        '*.access',
        '*.token',
      ],
      censor: '[redacted]',
    },
    serializers: { err: serializeError, error: serializeError, req: serializeRequest as never },
    hooks: {
      // The text arguments of every call (`Route GET:/password/<token> not found`…).
      logMethod(args, method) {
        const scrubbed = args.map((arg) => (typeof arg === 'string' ? scrubText(arg) : arg)) as typeof args;
        method.apply(this, scrubbed);
      },
    },
    ...(pretty
      ? { transport: { target: 'pino-pretty', options: { translateTime: 'HH:MM:ss', ignore: 'pid,hostname' } } }
      : {}),
  };
}

/** What a service writes to the application's logger (pino's signature; tests pass small fakes). */
export interface ServiceLog {
  info(object: object, message?: string): void;
  warn(object: object, message?: string): void;
  error(object: object, message?: string): void;
}
