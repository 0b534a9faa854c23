/** One stdio server over the extracted test/fixtures/sql app, shared by the SQL and HTTP-boundary e2e tests. */
import { cpSync } from 'node:fs';
import { join } from 'node:path';
import { after, before } from 'node:test';
import type { Client } from '@modelcontextprotocol/client';
import { extractFixture, ROOT } from './helpers.ts';
import { connectSdk } from './sdk-stdio.ts';

export interface SqlFixtureServer { fx: ReturnType<typeof extractFixture>; client: Client }

/** Registers before/after hooks in the calling file; the fields are set once `before` ran. */
export function serveSqlFixture(): SqlFixtureServer {
  const s = {} as SqlFixtureServer;
  let sdk: Awaited<ReturnType<typeof connectSdk>> | undefined;
  before(async () => {
    s.fx = extractFixture((repo) => cpSync(join(ROOT, 'test/fixtures/sql'), join(repo, 'sql'), { recursive: true }));
    sdk = await connectSdk(s.fx.graph, s.fx.env, { serve: ['--no-freshen'] });
    s.client = sdk.client;
  });
  after(async () => {
    await sdk?.close();
    s.fx?.cleanup();
  });
  return s;
}
