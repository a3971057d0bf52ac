import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { ConfigSchema } from '../src/config.js';
import { repoRoot } from '../src/lib/paths.js';

/**
 * docker-compose.yml, Dockerfile and deploy/Caddyfile read as text (docs/operations.md): Docker
 * cannot run here, so the test checks what makes the replicas one site — the same image and
 * settings, healthy dependencies first, settings the server knows, a proxy over both replicas
 * that does not buffer event streams, and no secret written into the files.
 */
const root = repoRoot();
const read = (file: string) => fs.readFileSync(path.join(root, file), 'utf8');

interface Service {
  build?: unknown;
  image?: string;
  environment?: Record<string, string | number | boolean>;
  depends_on?: Record<string, { condition?: string }> | string[];
  healthcheck?: { test: string[] | string };
  volumes?: string[];
  command?: string[];
  entrypoint?: string[];
}
const compose = parse(read('docker-compose.yml'), { merge: true }) as { services: Record<string, Service> };
const services = compose.services;
const appNames = Object.keys(services).filter((name) => services[name]!.build !== undefined);
const apps = appNames.map((name) => services[name]!);

/** The `${NAME…}` references of a Compose value (not the `$${…}` escapes left to the shell). */
function variables(value: unknown): { name: string; op: string; fallback: string }[] {
  const text = String(value ?? '').replaceAll('$$', '');
  return [...text.matchAll(/\$\{([A-Za-z_][A-Za-z0-9_]*)(?:(:?[-?])([^}]*))?\}/g)].map((m) => ({
    name: m[1]!,
    op: m[2] ?? '',
    fallback: m[3] ?? '',
  }));
}
/** A value that is exactly one variable reference, with no default written in the file. */
function isSecretReference(value: unknown): boolean {
  const text = String(value ?? '');
  const refs = variables(text);
  return refs.length === 1 && /^\$\{[^}]+\}$/.test(text) && (refs[0]!.op.includes('?') || refs[0]!.fallback === '');
}
const env = (service: Service) => service.environment ?? {};
const SECRET_NAME = /SECRET|PASSWORD|TOKEN|API_KEY|ACCESS_KEY|ROOT_USER|SMTP_URL/;

describe('docker-compose.yml', () => {
  it('runs two replicas of one image with the same settings', () => {
    expect(appNames).toHaveLength(2);
    const [a, b] = apps;
    expect(a!.build).toEqual(b!.build);
    expect(a!.image).toBe(b!.image);
    expect(a!.environment).toEqual(b!.environment);
    expect(a!.healthcheck).toEqual(b!.healthcheck);
    // Per-replica volumes never share a directory (PGlite and local files are not for two processes).
    const [va, vb] = apps.map((s) => (s.volumes ?? []).map((v) => v.split(':')[0]));
    expect(va!.filter((v) => vb!.includes(v))).toEqual([]);
  });

  it('starts each replica after PostgreSQL and Redis are healthy and the bucket exists', () => {
    for (const app of apps) {
      const deps = app.depends_on as Record<string, { condition?: string }>;
      expect(deps.postgres?.condition).toBe('service_healthy');
      expect(deps.redis?.condition).toBe('service_healthy');
      expect(deps['minio-init']?.condition).toBe('service_completed_successfully');
    }
    for (const name of ['postgres', 'redis', 'minio']) expect(services[name]!.healthcheck, name).toBeDefined();
    expect(services['minio-init']!.depends_on).toEqual({ minio: { condition: 'service_healthy' } });
    expect(services['minio-init']!.entrypoint!.join(' ')).toMatch(/mc mb --ignore-existing "store\/\$\$\{S3_BUCKET\}"/);
  });

  it('checks readiness, not just liveness, before a replica counts', () => {
    for (const app of apps) expect(JSON.stringify(app.healthcheck!.test)).toContain('/api/ready');
  });

  it('uses only settings the server knows', () => {
    const known = new Set(Object.keys(ConfigSchema.shape));
    for (const app of apps) expect(Object.keys(env(app)).filter((name) => !known.has(name))).toEqual([]);
  });

  it('shares JWT_SECRET, DATABASE_URL, REDIS_URL and the bucket, consistent with their services', () => {
    const e = env(apps[0]!);
    expect(variables(e.JWT_SECRET)).toEqual([expect.objectContaining({ name: 'JWT_SECRET', op: ':?' })]);

    const pg = env(services.postgres!);
    const db = new URL(String(e.DATABASE_URL).replace(/\$\{([A-Z_]+)[^}]*\}/g, '$1'));
    expect(db.protocol).toBe('postgres:');
    expect(db.hostname).toBe('postgres');
    expect(db.port).toBe('5432');
    expect(db.username).toBe(variables(pg.POSTGRES_USER)[0]!.name);
    expect(db.password).toBe(variables(pg.POSTGRES_PASSWORD)[0]!.name);
    expect(db.pathname).toBe(`/${variables(pg.POSTGRES_DB)[0]!.name}`);
    // The same defaults on both sides, so that an unset POSTGRES_USER/DB still matches.
    for (const name of ['POSTGRES_USER', 'POSTGRES_DB'])
      expect(variables(e.DATABASE_URL).find((v) => v.name === name)).toEqual(variables(pg[name])[0]);

    const redis = new URL(String(e.REDIS_URL));
    expect(redis.protocol).toBe('redis:');
    expect(services[redis.hostname]).toBeDefined();
    expect(redis.hostname).toBe('redis');

    expect(e.STORAGE_PROVIDER).toBe('s3');
    const s3 = new URL(String(e.S3_ENDPOINT));
    expect(s3.hostname).toBe('minio');
    expect(String(e.S3_FORCE_PATH_STYLE)).toBe('true');
    const minio = env(services.minio!);
    const init = env(services['minio-init']!);
    expect(variables(minio.MINIO_ROOT_USER)[0]!.name).toBe(variables(e.S3_ACCESS_KEY_ID)[0]!.name);
    expect(variables(minio.MINIO_ROOT_PASSWORD)[0]!.name).toBe(variables(e.S3_SECRET_ACCESS_KEY)[0]!.name);
    expect(init.S3_BUCKET).toBe(e.S3_BUCKET);
    expect(init.S3_ACCESS_KEY_ID).toBe(e.S3_ACCESS_KEY_ID);
    expect(init.S3_SECRET_ACCESS_KEY).toBe(e.S3_SECRET_ACCESS_KEY);

    expect(String(e.TRUST_PROXY)).toBe('true');
    expect(e.NODE_ENV).toBe('production');
  });

  it('writes no secret: every secret comes from a variable without a default', () => {
    for (const [name, service] of Object.entries(services))
      for (const [key, value] of Object.entries(env(service)))
        if (SECRET_NAME.test(key)) expect(isSecretReference(value), `${name}.${key}`).toBe(true);
    const password = variables(env(apps[0]!).DATABASE_URL).find((v) => v.name === 'POSTGRES_PASSWORD');
    expect(password?.op).toBe(':?');
    // Nothing that looks like a key or a password literal anywhere in the file.
    expect(read('docker-compose.yml')).not.toMatch(/(sk_live|sk_test|whsec_|minioadmin)/);
  });

  it('puts a reverse proxy over both replicas that does not buffer event streams', () => {
    const proxy = services.proxy!;
    const mount = proxy.volumes!.find((v) => v.includes('Caddyfile'))!;
    const caddyfile = read(path.normalize(mount.split(':')[0]!));
    const upstreams = caddyfile
      .match(/^\s*reverse_proxy\s+([^{]+)\{/m)![1]!
      .trim()
      .split(/\s+/);
    expect(upstreams.sort()).toEqual(appNames.map((name) => `${name}:3000`).sort());
    expect(caddyfile).toMatch(/^\s*flush_interval\s+-1\s*$/m);
    expect(caddyfile).toMatch(/^\s*health_uri\s+\/api\/ready\s*$/m);
    expect(caddyfile).not.toMatch(/^\s*encode\b/m);
    expect(proxy.depends_on).toEqual(expect.arrayContaining(appNames));
  });
});

describe('Dockerfile', () => {
  const dockerfile = read('Dockerfile');
  it('builds in stages with npm ci and npm run build, runs the bundle as a non-root user', () => {
    expect(dockerfile.match(/^FROM /gm)!.length).toBeGreaterThanOrEqual(2);
    expect(dockerfile).toMatch(/^RUN npm ci\b/m);
    expect(dockerfile).toMatch(/npm run build/);
    expect(dockerfile).toMatch(/^USER (?!root)\S+/m);
    expect(dockerfile).toMatch(/^CMD \["node", "apps\/server\/dist\/server\.js"\]/m);
    expect(dockerfile).toMatch(/^HEALTHCHECK [^]*\/api\/health/m);
  });

  it('copies what the server reads at run time: migrations, content, the web app', () => {
    for (const dir of ['apps/server/dist', 'apps/server/drizzle', 'apps/server/content', 'apps/web/dist'])
      expect(dockerfile).toContain(`COPY --from=build /app/${dir} ./${dir}`);
  });
});
