import { fireEvent, render, screen } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { FilterChips } from './filter-chips';

describe('FilterChips', () => {
  it('presses the chosen filter and reports another one', () => {
    const onChange = vi.fn();
    render(
      <FilterChips
        value="open"
        options={['open', 'closed'] as const}
        onChange={onChange}
        label={(option) => option.toUpperCase()}
        strong
      />,
    );
    const open = screen.getByRole('button', { name: 'OPEN' });
    expect(open.getAttribute('aria-pressed')).toBe('true');
    expect(open.className).toContain('bg-primary');
    expect(screen.getByRole('button', { name: 'CLOSED' }).getAttribute('aria-pressed')).toBe('false');
    fireEvent.click(screen.getByRole('button', { name: 'CLOSED' }));
    expect(onChange).toHaveBeenCalledWith('closed');
  });
});
