import fs from 'node:fs';
import path from 'node:path';
import type { BrowserContext } from 'playwright-core';
import { vi } from 'vitest';
import { PORTAL_LOGIN_COOKIE } from '../../../src/domain/web-config';
import { PORTAL_SESSION_COOKIE } from '../../../src/server/auth';
import { readOutbox } from '../../../src/server/mail';
import { createTestApp, type TTestApp } from '../../../src/server/test/app';
import { tempDir } from './browser';

export type TE2eApp = Awaited<ReturnType<typeof startApp>>;

/**
 * The real server, in this process, on a free port, over a fresh data directory. Its database is a
 * fresh one on the PostgreSQL server when DATABASE_URL is set (CI sets it), else a PGlite directory
 * in that data directory. On PostgreSQL the queries run in the server's own processes, on the other
 * core, instead of in this process's event loop beside the app and the test.
 */
export async function startApp(env: Record<string, string> = {}, options: { port?: number } = {}) {
  if (!fs.existsSync(path.resolve('dist/web/index.html'))) {
    throw new Error('The web app is not built: run "npm run build" (npm run test:e2e does it).');
  }
  const dataDir = tempDir('practice-e2e-');
  const app = await createTestApp(
    { DATA_DIR: dataDir, ...env },
    { ...(process.env.DATABASE_URL ? {} : { dataDir: path.join(dataDir, 'db') }), ...options },
  );

  /**
   * The newest mail to an address, as the outbox wrote it, once there are `count` of them (waits for
   * them, not for a time: a code is written just after the answer). It sends the queued mail that
   * is due first: invitations and notifications go through the job queue, which the test app does
   * not run.
   */
  function lastMail(to: string, count = 1) {
    return vi.waitFor(
      async () => {
        await app.sendQueuedMail();
        const mine = (await readOutbox(app.config.mail.outboxDir)).filter((m) => m.to === to);
        const last = mine[mine.length - 1];
        if (!last || mine.length < count) throw new Error(`${mine.length} of ${count} mails to ${to} so far`);
        return last;
      },
      { timeout: 10_000, interval: 50 },
    );
  }

  /** The path of the link in the newest mail to an address, on this test server. */
  /** Every mail to an address so far, the due queued mail sent first (it does not wait for more). */
  async function mailTo(to: string) {
    await app.sendQueuedMail();
    return (await readOutbox(app.config.mail.outboxDir)).filter((m) => m.to === to);
  }

  async function lastLinkPath(to: string): Promise<string> {
    const link = (await lastMail(to)).notes.link;
    if (!link) throw new Error(`the last mail to ${to} has no link`);
    return new URL(link).pathname;
  }

  return {
    ...app,
    dataDir,
    lastMail,
    lastLinkPath,
    mailTo,
    async close() {
      await app.close();
      fs.rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

/**
 * Puts a member's tokens where Amplify's cookie storage keeps them after a sign-in, so the route
 * guard sees the session and Amplify sends the access token on every call.
 */
export async function signInWithCookies(
  context: BrowserContext,
  app: TTestApp,
  member: { sub: string | null },
  tokens?: { accessToken: string; idToken: string },
): Promise<void> {
  const username = member.sub ?? 'user';
  const { accessToken, idToken } = tokens ?? (await app.tokensFor(username, username));
  const prefix = `CognitoIdentityServiceProvider.${app.config.idp.clientId}`;
  await context.addCookies([
    { name: `${prefix}.LastAuthUser`, value: username, url: app.url },
    { name: `${prefix}.${username}.accessToken`, value: accessToken, url: app.url },
    { name: `${prefix}.${username}.idToken`, value: idToken, url: app.url },
    { name: `${prefix}.${username}.clockDrift`, value: '0', url: app.url },
  ]);
}

/** Puts a portal session where the portal's sign-in leaves it: the session cookie and the signed-in mark. */
export async function signInToPortal(
  context: BrowserContext,
  app: { url: string },
  token: string,
): Promise<void> {
  await context.addCookies([
    { name: PORTAL_SESSION_COOKIE, value: token, url: app.url, httpOnly: true, sameSite: 'Strict' },
    { name: PORTAL_LOGIN_COOKIE, value: '1', url: app.url, sameSite: 'Strict' },
  ]);
}
