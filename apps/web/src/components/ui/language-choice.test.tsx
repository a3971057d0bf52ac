import { fireEvent, render, screen, within } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { LanguageChoice } from './language-choice';

describe('LanguageChoice', () => {
  it('offers the five languages in their own names, the chosen one pressed', () => {
    const onChange = vi.fn();
    render(<LanguageChoice label="Language" value="de" onChange={onChange} />);
    const group = screen.getByRole('group', { name: 'Language' });
    const buttons = within(group).getAllByRole('button');
    expect(buttons).toHaveLength(5);
    const deutsch = within(group).getByRole('button', { name: 'Deutsch' });
    expect(deutsch.getAttribute('aria-pressed')).toBe('true');
    expect(deutsch.getAttribute('lang')).toBe('de');
    expect(buttons.filter((b) => b.getAttribute('aria-pressed') === 'true')).toHaveLength(1);
    expect(buttons.some((b) => b.getAttribute('lang') === 'zh-CN')).toBe(true);
    fireEvent.click(within(group).getByRole('button', { name: 'English' }));
    expect(onChange).toHaveBeenCalledWith('en');
  });

  it('marks the chosen language with a check in the large size only', () => {
    const { container, rerender } = render(<LanguageChoice label="L" value="en" onChange={() => undefined} />);
    expect(container.querySelector('svg')).toBeNull();
    rerender(<LanguageChoice label="L" value="en" onChange={() => undefined} size="lg" />);
    expect(container.querySelectorAll('svg')).toHaveLength(1);
  });
});
