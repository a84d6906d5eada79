import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { eq } from 'drizzle-orm';
import { vi } from 'vitest';
import { members } from '../db/schema';
import { readOutbox } from '../mail';
import { createTestApp } from '../test/app';

/**
 * A test server whose mail goes to a fresh outbox directory. `readOutbox` first sends the queued
 * mail that is due (invitations, notifications: the job queue's, which test apps do not run), so
 * what a committed change mailed is there when it answers.
 */
export async function createIdpTestApp(env: Record<string, string> = {}, options: { port?: number } = {}) {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'idp-test-'));
  const t = await createTestApp({ DATA_DIR: dataDir, ...env }, options);
  const outboxDir = t.config.mail.outboxDir;

  /** The newest code mailed to an address (waits for it, should the mail come after the answer). */
  function lastCode(to: string): Promise<string> {
    return vi.waitFor(
      async () => {
        const code = (await readOutbox(outboxDir)).filter((m) => m.to === to).at(-1)?.notes.code;
        if (!code) throw new Error(`no mail with a code to ${to}`);
        return code;
      },
      { timeout: 10_000, interval: 20 },
    );
  }

  /** Gives a seeded firm's owner this identity-provider subject. */
  async function ownerWithSub(sub: string) {
    const firm = await t.seedFirm();
    await t.db.update(members).set({ sub }).where(eq(members.id, firm.owner.id));
    return firm;
  }

  return {
    ...t,
    outboxDir,
    endpoint: `${t.url}/api/idp`,
    lastCode,
    ownerWithSub,
    async readOutbox() {
      await t.sendQueuedMail();
      return readOutbox(outboxDir);
    },
    async close() {
      await t.close();
      fs.rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

export const AMZ_HEADERS = { 'content-type': 'application/x-amz-json-1.1' };

/** One raw protocol call, as any client would make it. */
export async function idpCall(
  endpoint: string,
  op: string,
  body: unknown,
  headers: Record<string, string> = {},
) {
  const res = await fetch(endpoint, {
    method: 'POST',
    headers: { ...AMZ_HEADERS, 'x-amz-target': `AWSCognitoIdentityProviderService.${op}`, ...headers },
    body: typeof body === 'string' ? body : JSON.stringify(body),
  });
  const text = await res.text();
  return {
    status: res.status,
    headers: res.headers,
    body: text ? (JSON.parse(text) as Record<string, unknown>) : {},
  };
}
