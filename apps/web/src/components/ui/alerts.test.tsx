import { act, render, screen } from '@testing-library/react';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { initI18n } from '../../lib/i18n';
import { AlertStack, dismissAlert, showAlert } from './alerts';

const shown: number[] = [];
const show = (text: string, type?: 'success' | 'error') => act(() => void shown.push(showAlert(text, { type })));
const texts = () => screen.queryAllByRole('status').map((node) => node.textContent);

beforeAll(async () => {
  await initI18n('en');
});
afterEach(() => {
  act(() => shown.splice(0).forEach(dismissAlert));
});

describe('alerts', () => {
  it('shows the same words once however often they are said, with a fresh timer', () => {
    render(<AlertStack />);
    show('Memory added');
    show('Memory added');
    show('Memory added');
    expect(texts()).toEqual(['Memory added']);
    // The same words as an error are another alert.
    show('Memory added', 'error');
    expect(screen.getAllByRole('alert')).toHaveLength(1);
  });

  it('keeps three at most on screen, the newest; the oldest gives way', () => {
    render(<AlertStack />);
    for (const text of ['One', 'Two', 'Three', 'Four']) show(text);
    expect(texts()).toEqual(['Two', 'Three', 'Four']);
  });
});
