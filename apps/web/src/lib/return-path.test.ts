import { describe, expect, it } from 'vitest';
import { currentReturnPath, safeNextPath, safeReturnPath } from './return-path';

describe('next and return paths', () => {
  it('accepts paths of this site', () => {
    for (const path of ['/', '/luna', '/luna?source=menu', '/?create=1', '/settings#manage-subscription'])
      expect(safeNextPath(path), path).toBe(path);
  });

  it('refuses other hosts, schemes, backslashes, dot segments and encoded slashes', () => {
    const attacks = [
      '//evil.example',
      '///evil.example',
      '/\\evil.example',
      '\\\\evil.example',
      'https://evil.example',
      'javascript:alert(1)',
      'evil.example',
      '/%2f%2fevil.example',
      '/%2F/evil.example',
      '/%5cevil.example',
      '/..//evil.example',
      '/%2e%2e//evil.example',
      '/a\nb',
      '',
      null,
      undefined,
    ];
    for (const path of attacks) {
      expect(safeNextPath(path), String(path)).toBeNull();
      expect(safeReturnPath(path), String(path)).toBe('/');
    }
  });

  it('the current page, without open modals or a checkout outcome', () => {
    expect(currentReturnPath({ pathname: '/luna', search: '?signup=1&next=%2Fx&from=chat&source=menu' })).toBe(
      '/luna?source=menu',
    );
    expect(currentReturnPath({ pathname: '//evil.example', search: '' })).toBe('/');
  });
});
