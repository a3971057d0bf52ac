import { render } from '@testing-library/react';
import { act } from 'react';
import { describe, expect, it } from 'vitest';
import { changeLocale } from './i18n';
import { AppProviders, createQueryClient } from './providers';

describe('AppProviders', () => {
  it('reads the data again when the language changes (characters and posts answer in it)', async () => {
    const client = createQueryClient();
    client.setQueryData(['bots', 'detail', 'akari'], { description: 'English' });
    render(
      <AppProviders client={client}>
        <p>app</p>
      </AppProviders>,
    );
    expect(client.getQueryState(['bots', 'detail', 'akari'])?.isInvalidated).toBe(false);
    await act(() => changeLocale('de'));
    expect(client.getQueryState(['bots', 'detail', 'akari'])?.isInvalidated).toBe(true);
    await act(() => changeLocale('en'));
  });
});
