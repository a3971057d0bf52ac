import { z } from 'zod';

/** What every section of the admin console shares: an object's id in the path, a count badge. */
export const AdminIdParamsSchema = z.object({ id: z.uuid() });
export const AdminCountSchema = z.object({ count: z.number().int() }).meta({ id: 'AdminCount' });
export type AdminCount = z.infer<typeof AdminCountSchema>;
