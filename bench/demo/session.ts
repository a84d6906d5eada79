import type { FastifyReply, FastifyRequest } from 'fastify';
import { DOCUMENT_UPLOAD_PATH } from '../../src/domain/documents';
import { buildApp } from '../../src/server/app';
import type { TConfig } from '../../src/server/config';
import type { TDatabase } from '../../src/server/db/client';
import { registerReminderJobs } from '../../src/server/features/reminders';
import { AMZ_JSON } from '../../src/server/idp/endpoint';
import { registerMailJobs } from '../../src/server/jobs/setup';
import { createWorker } from '../../src/server/jobs/worker';
import type { TMailMessage } from '../../src/server/mail';
import { MAIL_SEND } from '../../src/server/mail';
import type { TContext } from '../../src/server/trpc/context';
import { createCallerFactory } from '../../src/server/trpc/init';
import { appRouter } from '../../src/server/trpc/router';

// The product, in process, for the demo to act through: the server's own app on the demo's database
// (its jobs off, so nothing runs behind the demo's back). People sign in with their password at the
// embedded identity provider and then call the very procedures the screens call, through the
// router with their own session (permissions, visibility, validation, system log and
// notifications included); uploads go through the upload route as the browser sends them.

const createCaller = createCallerFactory(appRouter);
export type TCaller = ReturnType<typeof createCaller>;

/** What the demo's mail "delivered": the history's mail went out at the time, to nobody real. */
export type TSentMail = TMailMessage;

export type TDemoFile = { name: string; contentType: string; bytes: Buffer };

export async function openSession(database: TDatabase, config: TConfig, orgId: string) {
  const quiet: TConfig = {
    ...config,
    logLevel: 'silent',
    jobs: { ...config.jobs, enabled: false },
    // The demo's own calls are not a flood to guard against.
    rateLimitPerMinute: Number.MAX_SAFE_INTEGER,
  };
  const { app, staffAuth } = await buildApp({ config: quiet, database, logger: false });
  await app.ready();
  const sent: TSentMail[] = [];
  const mailer = {
    async send(message: TMailMessage) {
      sent.push(message);
    },
  };
  const meta = { ip: '127.0.0.1', userAgent: null };

  /** Signs in at the identity provider with the password, as the login screen does. */
  async function signIn(email: string, password: string) {
    const res = await app.inject({
      method: 'POST',
      url: '/api/idp',
      headers: {
        'content-type': AMZ_JSON,
        'x-amz-target': 'AWSCognitoIdentityProviderService.InitiateAuth',
      },
      payload: JSON.stringify({
        ClientId: config.idp.clientId,
        AuthFlow: 'USER_PASSWORD_AUTH',
        AuthParameters: { USERNAME: email, PASSWORD: password },
      }),
    });
    const token = (res.json() as { AuthenticationResult?: { AccessToken?: string } }).AuthenticationResult
      ?.AccessToken;
    if (res.statusCode !== 200 || !token) {
      throw new Error(`${email} could not sign in to the demo (${res.statusCode}): ${res.body}`);
    }
    return token;
  }

  /** A signed-in person: the router with their session, and the upload route. */
  async function as(email: string, password: string) {
    const token = await signIn(email, password);
    const req = { headers: { authorization: `Bearer ${token}` }, ip: meta.ip } as unknown as FastifyRequest;
    let identity: ReturnType<typeof staffAuth.resolve> | undefined;
    const ctx: TContext = {
      db: database.db,
      config: quiet,
      mailer,
      req,
      res: undefined as unknown as FastifyReply,
      meta,
      staffIdentity: () => {
        identity ??= staffAuth.resolve(req);
        return identity;
      },
      portalSession: async () => null,
    };
    const api = createCaller(ctx);

    /** POST /api/documents/upload, one file, multipart as the browser sends it. */
    async function upload(target: { folderId: string } | { taskId: string }, file: TDemoFile) {
      const boundary = `----demo${Math.random().toString(16).slice(2)}`;
      const head = Buffer.from(
        `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="${file.name}"\r\n` +
          `Content-Type: ${file.contentType}\r\n\r\n`,
      );
      const payload = Buffer.concat([head, file.bytes, Buffer.from(`\r\n--${boundary}--\r\n`)]);
      const query = 'folderId' in target ? `folderId=${target.folderId}` : `taskId=${target.taskId}`;
      const res = await app.inject({
        method: 'POST',
        url: `${DOCUMENT_UPLOAD_PATH}?${query}`,
        headers: {
          authorization: `Bearer ${token}`,
          'content-type': `multipart/form-data; boundary=${boundary}`,
        },
        payload,
      });
      if (res.statusCode !== 201)
        throw new Error(`upload of ${file.name} refused (${res.statusCode}): ${res.body}`);
      return res.json() as { id: string; name: string };
    }
    return { api, upload };
  }

  /** Accepts a portal invitation from its link, as the invited person does in their browser. */
  async function acceptPortalInvite(link: string) {
    const key = new URL(link).pathname.split('/').at(-1) ?? '';
    const res = await app.inject({
      method: 'POST',
      url: '/api/trpc/clientPortalAuth.acceptInvite',
      headers: { 'content-type': 'application/json' },
      payload: JSON.stringify({ json: { key } }),
    });
    if (res.statusCode !== 200)
      throw new Error(`portal invitation not accepted (${res.statusCode}): ${res.body}`);
  }

  /**
   * Runs the firm's queued jobs of these kinds that are due, as the server's worker would, until
   * none is left. Only the demo firm's: another firm's mail is the server's to send.
   */
  async function runJobs(kinds: readonly string[]) {
    const worker = createWorker(
      { db: database.db, config: quiet, mailer, log: { info() {}, warn() {}, error() {} } },
      { pollMs: 50, kinds, batchSize: 20, orgId },
    );
    for (let n = await worker.tick(); n > 0; n = await worker.tick()) {}
  }

  registerMailJobs();
  registerReminderJobs();
  return {
    as,
    acceptPortalInvite,
    runJobs,
    /** Sends the queued mail; answers what went out since the last call. */
    async deliverMail() {
      await runJobs([MAIL_SEND]);
      return sent.splice(0);
    },
    async close() {
      await app.close();
    },
  };
}

export type TSession = Awaited<ReturnType<typeof openSession>>;
export type TPersonSession = Awaited<ReturnType<TSession['as']>>;
