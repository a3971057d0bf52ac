import { describe, expect, it } from 'vitest';
import { ROUTE_MIDDLEWARES, runMiddlewares } from './middleware';
import { openModalName, safeNext } from '../lib/modals';
import { GLOBAL_MIDDLEWARE, routes } from './router';
import { setTokens, clearSession, isAuthorized } from '../lib/session';
import { startEarly, takeEarly } from '../lib/early-answers';

const context = (url: string) => ({ request: new Request(url), params: {} });

describe('route middlewares', () => {
  it('raises "Unknown route middleware" for an unknown name', async () => {
    await expect(runMiddlewares(['nope'], context('http://x/'))).rejects.toThrow('Unknown route middleware');
  });

  it('has the four named middlewares of the specification', () => {
    expect(Object.keys(ROUTE_MIDDLEWARES).sort()).toEqual(['auth', 'generate', 'ready', 'validate-with-local-storage']);
    expect(GLOBAL_MIDDLEWARE).toEqual(['validate-with-local-storage', 'generate', 'ready']);
  });

  it('auth sends guests to sign-up (log-in on a device used before) and lets members through', async () => {
    clearSession();
    window.localStorage.removeItem('authorized_once');
    const first = await runMiddlewares(['auth'], context('http://x/chat?x=1')).catch((r: unknown) => r);
    expect((first as Response).headers.get('Location')).toBe('/?signup=1&next=%2Fchat%3Fx%3D1');
    window.localStorage.setItem('authorized_once', '1');
    const refused = await runMiddlewares(['auth'], context('http://x/chat?x=1')).catch((r: unknown) => r);
    expect(refused).toBeInstanceOf(Response);
    expect((refused as Response).headers.get('Location')).toBe('/?login=1&next=%2Fchat%3Fx%3D1');
    setTokens('a.b.c', 'd.e.f');
    await expect(runMiddlewares(['auth'], context('http://x/chat'))).resolves.toBeUndefined();
    clearSession();
  });

  it('validate-with-local-storage drops malformed tokens and languages', async () => {
    setTokens('not-a-jwt', 'd.e.f');
    window.localStorage.setItem('lang', 'xx');
    await runMiddlewares(['validate-with-local-storage'], context('http://x/'));
    expect(isAuthorized()).toBe(false);
    expect(window.localStorage.getItem('access_token')).toBeNull();
    expect(window.localStorage.getItem('lang')).toBeNull();
  });
});

describe('routes', () => {
  const paths = (routes[0]!.children![0]!.children ?? []).map((r) => r.path);
  it('registers every route of the specification', () => {
    expect(paths).toEqual(
      expect.arrayContaining([
        '/',
        'chat',
        'audio',
        'settings',
        'transform',
        'undress',
        'welcome',
        'blog',
        'blog/:id',
        'email/unsubscribe',
        'takedown',
        'admin/*',
        ':slug',
        '*',
      ]),
    );
    const landing = routes[0]!.children![0]!.children!.find((r) => r.path === '/');
    expect(landing!.children!.map((r) => r.path)).toEqual(['password', 'verify']);
  });

  it('protects /chat, /verify and /settings with auth', () => {
    const all = routes[0]!.children![0]!.children!.flatMap((r) => [r, ...(r.children ?? [])]);
    const guarded = all
      .filter((r) => (r.handle as { middleware?: string[] } | undefined)?.middleware?.includes('auth'))
      .map((r) => r.path);
    expect(guarded).toEqual(expect.arrayContaining(['chat', 'verify', 'settings']));
  });
});

describe('early answers', () => {
  it("a page's loader begins a navigation: an answer an earlier one started and nobody took is dropped", async () => {
    const blog = routes[0]!.children![0]!.children!.find((r) => r.path === 'blog')!;
    const load = blog.loader as (args: { request: Request; params: object }) => Promise<unknown>;
    startEarly('history:c1:latest', async () => ({ results: [] }));
    await load({ request: new Request('http://x/blog'), params: {} });
    expect(takeEarly('history:c1:latest')).toBeNull();
  });
});

describe('modal flags', () => {
  it('opens the modal named by a query flag', () => {
    expect(openModalName(new URLSearchParams('login=1'))).toBe('login');
    expect(openModalName(new URLSearchParams('premium=1&from=get-premium'))).toBe('premium');
    expect(openModalName(new URLSearchParams('pw=1&from=counter'))).toBe('pw');
    expect(openModalName(new URLSearchParams('signup=0'))).toBeNull();
  });
  it('only follows same-site next paths', () => {
    expect(safeNext('/chat')).toBe('/chat');
    expect(safeNext('//evil.example')).toBeNull();
    expect(safeNext('https://evil.example')).toBeNull();
    expect(safeNext('/%2f%2fevil.example')).toBeNull();
    expect(safeNext('/\\evil.example')).toBeNull();
    expect(safeNext('/?create=1')).toBe('/?create=1');
  });
});
