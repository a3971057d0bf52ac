import { z } from 'zod';
import { freeText, singleLine } from '../input.js';
import { ANALYTICS } from '../constants.js';

const propValue = z.union([freeText().max(ANALYTICS.maxPropertyLength), z.number(), z.boolean(), z.null()]);

export const AnalyticsEventSchema = z.object({
  name: z
    .string()
    .min(1)
    .max(64)
    .regex(/^[a-z][a-z0-9_]*$/),
  props: z.record(singleLine().max(64), propValue).default({}),
  ts: z.iso.datetime({ offset: true }),
  device_id: singleLine().min(8).max(64),
  user_id: singleLine().max(64).nullable().optional(),
});
export type AnalyticsEvent = z.infer<typeof AnalyticsEventSchema>;

export const AnalyticsBatchSchema = z
  .object({
    events: z.array(AnalyticsEventSchema).min(1).max(ANALYTICS.batchSize),
  })
  .meta({ id: 'AnalyticsBatch' });
export type AnalyticsBatch = z.infer<typeof AnalyticsBatchSchema>;

export const AnalyticsAcceptedSchema = z.object({ accepted: z.number().int() });

export const SubscribeClickSchema = z
  .object({
    from: z
      .string()
      .min(1)
      .max(64)
      .regex(/^[\w-]+$/),
  })
  .meta({ id: 'SubscribeClick' });
