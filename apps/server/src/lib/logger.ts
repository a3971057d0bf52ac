import type { LoggerOptions } from 'pino';
import type { Config } from '../config.js';

/** Pino options: JSON lines in production, pretty lines on a terminal during development. */
export function loggerOptions(config: Config): LoggerOptions {
  const pretty = config.LOG_PRETTY ?? (!config.isProduction && process.stdout.isTTY);
  return {
    level: config.LOG_LEVEL,
    redact: {
      paths: ['req.headers.authorization', 'req.headers.cookie', '*.password', '*.refresh', '*.access'],
      censor: '[redacted]',
    },
    ...(pretty
      ? { transport: { target: 'pino-pretty', options: { translateTime: 'HH:MM:ss', ignore: 'pid,hostname' } } }
      : {}),
  };
}
