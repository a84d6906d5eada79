import fs from 'node:fs';
import path from 'node:path';
import type { BrowserContext } from 'playwright-core';
import { createTestApp, type TTestApp } from '../../../src/server/test/app';
import { tempDir } from './browser';

/** The real server, in this process, on a free port, over a fresh data directory. */
export async function startApp(env: Record<string, string> = {}): Promise<TTestApp & { dataDir: string }> {
  if (!fs.existsSync(path.resolve('dist/web/index.html'))) {
    throw new Error('The web app is not built: run "npm run build" (npm run test:e2e does it).');
  }
  const dataDir = tempDir('practice-e2e-');
  const app = await createTestApp(env, { dataDir: path.join(dataDir, 'db') });
  return {
    ...app,
    dataDir,
    async close() {
      await app.close();
      fs.rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

/**
 * Signs the browser in as Amplify's cookie storage would after a sign-in: the route guard sees
 * the LastAuthUser cookie and the server reads the access token cookie.
 */
export async function signInWithCookies(
  context: BrowserContext,
  app: TTestApp,
  member: { sub: string | null; token: string },
): Promise<void> {
  const prefix = `CognitoIdentityServiceProvider.${app.config.idp.clientId}`;
  const username = member.sub ?? 'user';
  await context.addCookies([
    { name: `${prefix}.LastAuthUser`, value: username, url: app.url },
    { name: `${prefix}.${username}.accessToken`, value: member.token, url: app.url },
  ]);
}
