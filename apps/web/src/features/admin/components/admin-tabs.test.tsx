import { fireEvent, render, screen } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { AdminTabs } from './admin-tabs';

describe('AdminTabs', () => {
  it('is a named tab list with the chosen tab selected, and reports another one', () => {
    const onChange = vi.fn();
    render(
      <AdminTabs
        tabs={[
          { id: 'payments', label: 'Payments' },
          { id: 'ledger', label: 'Ledger' },
        ]}
        value="payments"
        onChange={onChange}
        label="Money"
        testIdPrefix="tab-"
      />,
    );
    expect(screen.getByRole('tablist', { name: 'Money' })).toBeTruthy();
    expect(screen.getByRole('tab', { name: 'Payments' }).getAttribute('aria-selected')).toBe('true');
    expect(screen.getByTestId('tab-ledger').getAttribute('aria-selected')).toBe('false');
    // Underlined, not filled like the side menu and the filter chips around it.
    expect(screen.getByTestId('tab-payments').className).toContain('border-primary');
    expect(screen.getByTestId('tab-ledger').className).toContain('border-transparent');
    fireEvent.click(screen.getByTestId('tab-ledger'));
    expect(onChange).toHaveBeenCalledWith('ledger');
  });
});
