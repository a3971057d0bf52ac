import { fireEvent, render, screen } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { KeysetFilter } from './admin-pager';

describe('KeysetFilter', () => {
  it('reports what is typed and goes back to the first page', () => {
    const onChange = vi.fn();
    const onReset = vi.fn();
    render(
      <KeysetFilter
        value=""
        onChange={onChange}
        onReset={onReset}
        label="User"
        maxLength={36}
        testId="filter"
        className="sm:max-w-md"
      />,
    );
    const field = screen.getByLabelText<HTMLInputElement>('User');
    expect(field.placeholder).toBe('User');
    expect(field.maxLength).toBe(36);
    expect(field.className).toMatch(/focus:border-primary sm:max-w-md$/);
    fireEvent.change(field, { target: { value: 'abc' } });
    expect(onChange).toHaveBeenCalledWith('abc');
    expect(onReset).toHaveBeenCalledOnce();
  });
});
