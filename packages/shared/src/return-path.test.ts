import { describe, expect, it } from 'vitest';
import { CheckoutRequestSchema, isSafeReturnPath } from './index.js';

describe('isSafeReturnPath', () => {
  it('accepts paths of this site as the browser has them', () => {
    for (const path of ['/', '/chat/luna', '/luna?chat=42', '/settings#manage-subscription', '/a%20b', '/luna?q=a+b'])
      expect(isSafeReturnPath(path), path).toBe(true);
  });

  it('refuses anything that could lead to another host or hide a dot segment', () => {
    const attacks = [
      '//evil.example',
      '/..//evil.example',
      '/%2e%2e//evil.example',
      '/%2E%2E//evil.example',
      '/.%2e//evil.example',
      '/a/../..//evil.example',
      '/.//evil.example',
      '/%2f%2fevil.example',
      '/%2F/evil.example',
      '/%5cevil.example',
      '/%5Cevil.example',
      '\\\\evil.example',
      '/\\evil.example',
      '/\\/evil.example',
      'https://evil.example',
      'http:/evil.example',
      'javascript:alert(1)',
      'evil.example',
      '/a b',
      '/a\tb',
      '/a\nb',
      '',
      `/${'a'.repeat(600)}`,
    ];
    for (const path of attacks) expect(isSafeReturnPath(path), path).toBe(false);
  });

  it('is what the checkout request schema checks', () => {
    expect(CheckoutRequestSchema.safeParse({ plan: 'monthly', return_path: '/..//evil.example' }).success).toBe(false);
    expect(CheckoutRequestSchema.safeParse({ plan: 'monthly', return_path: '/luna?chat=1' }).success).toBe(true);
  });
});
