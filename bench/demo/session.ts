import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { portalUploadUrl } from '../../src/domain/client-portal';
import { DOCUMENT_UPLOAD_PATH } from '../../src/domain/documents';
import { buildApp } from '../../src/server/app';
import { PORTAL_SESSION_COOKIE } from '../../src/server/auth';
import type { TConfig } from '../../src/server/config';
import type { TDatabase } from '../../src/server/db/client';
import { registerInvoiceMailJob } from '../../src/server/features/billing';
import { registerBroadcastJobs } from '../../src/server/features/broadcasts';
import { registerReminderJobs } from '../../src/server/features/reminders';
import { REQUEST_UPLOAD_PATH } from '../../src/server/features/requests';
import { createStorage } from '../../src/server/files/storage';
import { AMZ_JSON } from '../../src/server/idp/endpoint';
import { registerMailJobs } from '../../src/server/jobs/setup';
import { createWorker } from '../../src/server/jobs/worker';
import { MAIL_SEND, readOutbox, type TMailMessage } from '../../src/server/mail';
import type { TContext } from '../../src/server/trpc/context';
import { createCallerFactory } from '../../src/server/trpc/init';
import { appRouter } from '../../src/server/trpc/router';

// The product, in process, for the demo to act through: the server's own app on the demo's database
// (its jobs off, so nothing runs behind the demo's back). People sign in with their password at the
// embedded identity provider and then call the very procedures the screens call, through the
// router with their own session (permissions, visibility, validation, system log and
// notifications included); uploads go through the upload route as the browser sends them. The
// portal's people sign in with the code mailed to them and use the portal's own calls.

const createCaller = createCallerFactory(appRouter);

export type TDemoFile = { name: string; contentType: string; bytes: Buffer };

/** A file as a browser sends it: multipart/form-data with one part. */
function multipart(file: TDemoFile) {
  const boundary = `----demo${Math.random().toString(16).slice(2)}`;
  const head = Buffer.from(
    `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="${file.name}"\r\n` +
      `Content-Type: ${file.contentType}\r\n\r\n`,
  );
  return {
    contentType: `multipart/form-data; boundary=${boundary}`,
    payload: Buffer.concat([head, file.bytes, Buffer.from(`\r\n--${boundary}--\r\n`)]),
  };
}

export async function openSession(database: TDatabase, config: TConfig) {
  // The firm whose queued jobs the demo runs: known once its owner has made it.
  let orgId: string | undefined;
  // The codes the portal mails at once go to an outbox of the demo's own, not the firm's.
  const outboxDir = fs.mkdtempSync(path.join(os.tmpdir(), 'practice-demo-mail-'));
  const quiet: TConfig = {
    ...config,
    mail: { ...config.mail, smtpUrl: undefined, outboxDir },
    logLevel: 'silent',
    jobs: { ...config.jobs, enabled: false },
    // The demo's own calls are not a flood to guard against.
    rateLimitPerMinute: Number.MAX_SAFE_INTEGER,
  };
  const { app, staffAuth } = await buildApp({ config: quiet, database, logger: false });
  await app.ready();
  // The mail the firm's changes queue is sent by the product's mail job, to this mailer: the
  // history's mail went out at the time, to nobody real (the portal invitation is read from it).
  const sent: TMailMessage[] = [];
  const mailer = {
    async send(message: TMailMessage) {
      sent.push(message);
    },
  };
  const meta = { ip: '127.0.0.1', userAgent: null };
  // The app's own store (the same configuration): a procedure that copies a file reads and writes it.
  const storage = await createStorage(quiet);

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
    // Looked up once, like a page's calls in a request: the demo's people do not change firm or role.
    let identity: ReturnType<typeof staffAuth.resolve> | undefined;
    const ctx: TContext = {
      db: database.db,
      config: quiet,
      mailer,
      storage,
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
      const body = multipart(file);
      const query = 'folderId' in target ? `folderId=${target.folderId}` : `taskId=${target.taskId}`;
      const res = await app.inject({
        method: 'POST',
        url: `${DOCUMENT_UPLOAD_PATH}?${query}`,
        headers: { authorization: `Bearer ${token}`, 'content-type': body.contentType },
        payload: body.payload,
      });
      if (res.statusCode !== 201)
        throw new Error(`upload of ${file.name} refused (${res.statusCode}): ${res.body}`);
      return res.json() as { id: string; name: string };
    }
    return {
      api,
      upload,
      /** After joining or making a firm: who this is is looked up again, as the app does then. */
      refresh() {
        identity = undefined;
      },
    };
  }

  /** A tRPC call over HTTP, as the portal's pages make it (its session is a cookie). */
  async function trpc<T>(
    procedure: string,
    input: unknown,
    cookie?: string,
    kind: 'query' | 'mutation' = 'mutation',
  ) {
    const json = JSON.stringify({ json: input });
    const res = await app.inject({
      method: kind === 'query' ? 'GET' : 'POST',
      url: `/api/trpc/${procedure}${kind === 'query' ? `?input=${encodeURIComponent(json)}` : ''}`,
      headers: { 'content-type': 'application/json', ...(cookie ? { cookie } : {}) },
      ...(kind === 'mutation' ? { payload: json } : {}),
    });
    if (res.statusCode !== 200) throw new Error(`${procedure} refused (${res.statusCode}): ${res.body}`);
    const session = res.cookies.find((c) => c.name === PORTAL_SESSION_COOKIE);
    const data = (res.json() as { result: { data: { json: T } } }).result.data.json;
    return { data, cookie: session ? `${session.name}=${session.value}` : cookie };
  }

  /** Accepts a portal invitation from its link, as the invited person does in their browser. */
  async function acceptPortalInvite(link: string) {
    await trpc('clientPortalAuth.acceptInvite', { key: new URL(link).pathname.split('/').at(-1) ?? '' });
  }

  /** Signs a portal user in with the code mailed to them: the portal's calls and upload route. */
  async function portalSignIn(email: string) {
    // A person may sign in more than once (and get other mail): wait for a code newer than those
    // already in their mail.
    const codesOf = async () =>
      (await readOutbox(outboxDir)).filter((m) => m.to === email && m.notes.code).map((m) => m.notes.code);
    const before = (await codesOf()).length;
    await trpc('clientPortalAuth.requestCode', { email });
    let code: string | undefined;
    // The code is mailed just after the answer.
    for (let tries = 0; !code && tries < 200; tries++) {
      const codes = await codesOf();
      code = codes.length > before ? codes.at(-1) : undefined;
      if (!code) await new Promise((resolve) => setTimeout(resolve, 25));
    }
    if (!code) throw new Error(`no sign-in code reached ${email}`);
    const { cookie } = await trpc('clientPortalAuth.verifyCode', { email, code });
    if (!cookie) throw new Error(`${email} could not sign in to the portal`);
    return {
      query: <T>(procedure: string, input: unknown) =>
        trpc<T>(procedure, input, cookie, 'query').then((r) => r.data),
      mutate: <T>(procedure: string, input: unknown) => trpc<T>(procedure, input, cookie).then((r) => r.data),
      async upload(target: { clientId: string; folderId?: string; taskId?: string }, file: TDemoFile) {
        const body = multipart(file);
        const res = await app.inject({
          method: 'POST',
          url: portalUploadUrl(target),
          headers: { cookie, 'content-type': body.contentType },
          payload: body.payload,
        });
        if (res.statusCode !== 201) throw new Error(`portal upload refused (${res.statusCode}): ${res.body}`);
      },
      /** A file for a request's item, through the requests' upload route. */
      async uploadToRequest(
        target: { clientId: string; requestId: string; itemId: string },
        file: TDemoFile,
      ) {
        const body = multipart(file);
        const res = await app.inject({
          method: 'POST',
          url: `${REQUEST_UPLOAD_PATH}?${new URLSearchParams(target)}`,
          headers: { cookie, 'content-type': body.contentType },
          payload: body.payload,
        });
        if (res.statusCode !== 201)
          throw new Error(`request upload refused (${res.statusCode}): ${res.body}`);
      },
    };
  }

  /**
   * Runs the firm's queued jobs of these kinds that are due, as the server's worker would, until
   * none is left. Only the demo firm's: another firm's mail is the server's to send.
   */
  async function runJobs(kinds: readonly string[]) {
    if (!orgId) throw new Error('the demo firm is not made yet');
    const worker = createWorker(
      { db: database.db, config: quiet, mailer, log: { info() {}, warn() {}, error() {} } },
      { pollMs: 50, kinds, batchSize: 20, orgId },
    );
    for (let n = await worker.tick(); n > 0; n = await worker.tick()) {}
  }

  registerMailJobs();
  registerReminderJobs();
  registerBroadcastJobs();
  registerInvoiceMailJob();
  return {
    forFirm(id: string) {
      orgId = id;
    },
    as,
    acceptPortalInvite,
    portalSignIn,
    runJobs,
    /** Sends the queued mail; answers what went out since the last call. */
    async deliverMail() {
      await runJobs([MAIL_SEND]);
      return sent.splice(0);
    },
    async close() {
      await app.close();
      fs.rmSync(outboxDir, { recursive: true, force: true });
    },
  };
}

export type TSession = Awaited<ReturnType<typeof openSession>>;
export type TPersonSession = Awaited<ReturnType<TSession['as']>>;
