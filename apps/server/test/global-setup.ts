import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import postgres from 'postgres';
import type { TestProject } from 'vitest/node';
import { openDatabase, PGLITE_EXTENSIONS } from '../src/db/client.js';
import { runMigrations } from '../src/db/migrate.js';
import { createJobQueue } from '../src/providers/jobs/index.js';

/** The job queue's tables (pg-boss creates them on start) belong in the template too. */
async function installJobQueue(handle: Awaited<ReturnType<typeof openDatabase>>) {
  const jobs = createJobQueue(handle, { poolSize: 1 });
  await jobs.start();
  await jobs.stop();
}

/**
 * Runs once per test run: migrates a template database that every test file copies.
 * PGlite: a migrated data dir dumped to a file (loading it takes ≈ 0.8 s, creating one ≈ 4 s).
 * PostgreSQL (TEST_DB=postgres): a template database cloned with CREATE DATABASE … TEMPLATE.
 */
export default async function setup(project: TestProject) {
  if (process.env.TEST_DB === 'postgres') {
    const url = process.env.DATABASE_URL;
    if (!url) throw new Error('TEST_DB=postgres needs DATABASE_URL');
    const template = `reverie_tpl_${process.pid}`;
    const admin = postgres(url, { max: 1, onnotice: () => {} });
    await admin.unsafe(`drop database if exists ${template}`);
    await admin.unsafe(`create database ${template}`);
    const templateUrl = withDatabase(url, template);
    const handle = await openDatabase({ url: templateUrl, poolSize: 1 });
    await runMigrations(handle);
    await installJobQueue(handle);
    await handle.close();
    project.provide('testDb', { kind: 'postgres', url, template });
    return async () => {
      await admin.unsafe(`drop database if exists ${template} with (force)`).catch(() => {});
      await admin.end();
    };
  }
  const pglite = await PGlite.create({ extensions: PGLITE_EXTENSIONS });
  const handle = await openDatabase({ pglite });
  await runMigrations(handle);
  await installJobQueue(handle);
  const dump = await pglite.dumpDataDir('none');
  await pglite.close();
  const file = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'reverie-test-')), 'template.tar');
  fs.writeFileSync(file, Buffer.from(await dump.arrayBuffer()));
  project.provide('testDb', { kind: 'pglite', file });
  return () => fs.rmSync(path.dirname(file), { recursive: true, force: true });
}

export function withDatabase(url: string, database: string): string {
  const parsed = new URL(url);
  parsed.pathname = `/${database}`;
  return parsed.toString();
}

declare module 'vitest' {
  export interface ProvidedContext {
    testDb: { kind: 'pglite'; file: string } | { kind: 'postgres'; url: string; template: string };
  }
}
