import { render, screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { SubmitButton } from './submit-button';

describe('SubmitButton', () => {
  it('submits its form, and waits (disabled, busy) while it is sent', () => {
    const { rerender } = render(<SubmitButton className="sm:w-auto">Send</SubmitButton>);
    const button = screen.getByRole('button', { name: 'Send' }) as HTMLButtonElement;
    expect(button.type).toBe('submit');
    expect(button.disabled).toBe(false);
    expect(button.getAttribute('aria-busy')).toBeNull();
    expect(button.className).toContain('sm:w-auto');
    rerender(<SubmitButton busy>Send</SubmitButton>);
    expect(button.disabled).toBe(true);
    expect(button.getAttribute('aria-busy')).toBe('true');
  });
});
