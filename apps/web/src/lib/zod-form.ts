import { useForm, type FieldValues, type Resolver, type UseFormProps } from 'react-hook-form';
import { zodResolver } from '@hookform/resolvers/zod';
import type { z } from 'zod';

/**
 * A react-hook-form form checked by a shared zod schema the way every form of the app is:
 * on submit, then again on every change, so an error goes as soon as the field is right.
 */
export function useZodForm<T extends FieldValues>(
  schema: z.ZodType,
  options: Omit<UseFormProps<T>, 'resolver' | 'mode' | 'reValidateMode'>,
) {
  return useForm<T>({
    resolver: zodResolver(schema as never) as unknown as Resolver<T>,
    mode: 'onSubmit',
    reValidateMode: 'onChange',
    ...options,
  });
}
