import { fireEvent, render, screen, waitFor } from '@testing-library/react';
import { z } from 'zod';
import { beforeAll, describe, expect, it, vi } from 'vitest';
import { initI18n } from '../../../lib/i18n';
import { useZodForm } from '../../../lib/zod-form';
import { EmailInput, PasswordInput, SwitchPrompt } from './form';

beforeAll(async () => {
  await initI18n('en');
});

const Schema = z.object({ email: z.string().email('email_invalid'), password: z.string().min(8, 'password_min') });

function Harness({ onValid }: { onValid: (values: z.infer<typeof Schema>) => void }) {
  const { register, handleSubmit, formState } = useZodForm<z.infer<typeof Schema>>(Schema, {
    defaultValues: { email: '', password: '' },
  });
  return (
    <form onSubmit={handleSubmit(onValid)} noValidate>
      <EmailInput error={formState.errors.email?.message} {...register('email')} />
      <PasswordInput
        autoComplete="current-password"
        error={formState.errors.password?.message}
        {...register('password')}
      />
      <button type="submit">Go</button>
    </form>
  );
}

describe('auth form fields', () => {
  it('label the e-mail and password inputs for the browser and check them on submit, then on change', async () => {
    const onValid = vi.fn();
    render(<Harness onValid={onValid} />);
    const email = screen.getByLabelText<HTMLInputElement>('E-mail');
    const password = screen.getByLabelText<HTMLInputElement>('Password');
    expect(email.type).toBe('email');
    expect(email.autocomplete).toBe('email');
    expect(password.type).toBe('password');
    expect(password.autocomplete).toBe('current-password');
    fireEvent.input(email, { target: { value: 'nope' } });
    expect(screen.queryAllByRole('alert')).toHaveLength(0);
    fireEvent.click(screen.getByRole('button', { name: 'Go' }));
    await waitFor(() => expect(screen.getAllByRole('alert').length).toBe(2));
    fireEvent.input(email, { target: { value: 'ann@example.test' } });
    fireEvent.input(password, { target: { value: 'long enough' } });
    await waitFor(() => expect(screen.queryAllByRole('alert')).toHaveLength(0));
    fireEvent.click(screen.getByRole('button', { name: 'Go' }));
    await waitFor(() => expect(onValid).toHaveBeenCalled());
  });

  it('a new password by default, and the prompt that switches forms', () => {
    const onClick = vi.fn();
    render(
      <>
        <PasswordInput label="New password" name="password" />
        <SwitchPrompt text="No account yet?" action="Create one" onClick={onClick} />
      </>,
    );
    expect(screen.getByLabelText<HTMLInputElement>('New password').autocomplete).toBe('new-password');
    fireEvent.click(screen.getByRole('button', { name: 'Create one' }));
    expect(onClick).toHaveBeenCalled();
    expect(screen.getByText('No account yet?', { exact: false })).toBeTruthy();
  });
});
