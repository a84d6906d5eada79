import fs from 'node:fs';
import path from 'node:path';
import { negotiate } from '@fastify/accept-negotiator';
import compress from '@fastify/compress';
import cookie from '@fastify/cookie';
import fastifyStatic from '@fastify/static';
import { type FastifyTRPCPluginOptions, fastifyTRPCPlugin } from '@trpc/server/adapters/fastify';
import Fastify, { type FastifyInstance, type FastifyServerOptions } from 'fastify';
import helmet from 'helmet';
import { isPortalPath } from '../domain/route-guard';
import { firmRequiresMfa, registerRouteAuth } from './auth';
import { registerBackupJob } from './backup/schedule';
import type { TConfig } from './config';
import type { TDatabase } from './db/client';
import { registerAccountingExport, registerPublicApi } from './features/api';
import { registerBillingRoutes, registerInvoiceExport, registerInvoicePdfRoute } from './features/billing';
import { registerBroadcastRoutes } from './features/broadcasts';
import { registerPortalDocumentRoutes } from './features/client-portal';
import { registerClientExport, registerClientImportRoutes } from './features/clients';
import { watchDashboardChanges } from './features/dashboard';
import { registerDocumentRoutes } from './features/documents';
import { registerFirmExportRoutes } from './features/firm-export';
import { registerLeaveAttachmentRoutes } from './features/leave';
import { registerInboundWebhook, registerMessageRoutes, startInboundSmtp } from './features/messages';
import { registerSigningRoutes } from './features/proposals';
import { registerReportExports } from './features/reports';
import { registerRequestUploadRoute } from './features/requests';
import { registerLogoRoute } from './features/settings';
import { registerSystemLogExport } from './features/system-log';
import { uploadTargetForTask } from './features/tasks';
import {
  confirmInvitedSignUp,
  leaveFirmsOnAccountDeletion,
  logMemberSecurityEvent,
  logMemberSignIn,
} from './features/team';
import { secretBox } from './features/vault';
import { setWebhookSealer } from './features/webhooks';
import { createStorage } from './files/storage';
import { answerClientError } from './http/client-error';
import { registerRateLimit } from './http/rate-limit';
import { contentSecurityPolicy, webConfigScript } from './http/web-config';
import { registerIdp } from './idp/endpoint';
import { IdpKeys } from './idp/keys';
import { createStaffAuth } from './idp/staff-auth';
import { registerJobs } from './jobs/setup';
import { createWorker, type TWorker } from './jobs/worker';
import { createMailer } from './mail';
import { webDistDir } from './paths';
import { makeCreateContext } from './trpc/context';
import { type AppRouter, appRouter } from './trpc/router';

export type TAppDeps = {
  config: TConfig;
  database: TDatabase;
  logger?: FastifyServerOptions['logger'];
  /** The built web app to serve (npm run build's dist/web unless a test gives its own). */
  webDir?: string;
  /** Where the mail outbox prints its links as plain lines (main.ts: stdout). */
  printMail?: (lines: string) => void;
};

export async function buildApp({ config, database, logger, webDir = webDistDir, printMail }: TAppDeps) {
  const app = Fastify({
    logger: logger ?? {
      level: config.logLevel,
      redact: ['req.headers.authorization', 'req.headers.cookie', 'res.headers["set-cookie"]'],
    },
    // A hop count believes that many proxies' X-Forwarded-For entries (from the right); a list
    // believes only those addresses. Never everyone: see TRUST_PROXY in config.ts.
    trustProxy: typeof config.trustProxy === 'number' ? trustHops(config.trustProxy) : config.trustProxy,
    // Batched GET calls put every procedure name in the path.
    routerOptions: { maxParamLength: 5000 },
    bodyLimit: 1024 * 1024,
    // On close: idle keep-alive connections are closed at once, and a request that arrives on one
    // before it is answers 503 with `Connection: close` (main.ts's shutdown cuts the rest later).
    forceCloseConnections: 'idle',
    return503OnClosing: true,
    clientErrorHandler: answerClientError,
  });

  // The embedded provider signs with keys in the database; a Cognito pool signs with its own.
  const keys = config.idp.mode === 'embedded' ? new IdpKeys(database.db) : null;
  // A first start generates the signing key (RSA, off the main thread) while the server starts;
  // what signs or verifies waits for it (IdpKeys), and retries a load that failed.
  keys?.load().catch((error) => app.log.error({ err: error }, 'the identity provider keys did not load'));
  const staffAuth = createStaffAuth({ db: database.db, config, keys });
  // Home-page summaries are cached until the firm changes what they show (dashboard/cache.ts).
  const stopDashboardWatch = await watchDashboardChanges(database, app.log);
  app.addHook('onClose', stopDashboardWatch);
  // The one mailer of this process: the job that sends queued mail uses it, and so do the codes
  // sent at the moment of the request (the identity provider's, the portal's sign-in code).
  const mailer = createMailer(config.mail, app.log, printMail);

  await app.register(cookie);
  // Before any route: every /api/ route that is not tRPC says who may call it, and this enforces it.
  const secrets = secretBox(config, database.db);
  // Webhook signing secrets are sealed with the vault's key (features/webhooks).
  setWebhookSealer(secrets);
  registerRouteAuth(app, {
    db: database.db,
    staffAuth,
    secureCookies: config.publicUrl.startsWith('https:'),
    linkMac: (data) => secrets.mac(data),
  });
  // The security headers, on every answer. Helmet's middleware is built once: the Fastify plugin
  // built it again for each request (its policy parsed every time, ~60 µs a request; bench/README.md).
  const securityHeaders = helmet({
    contentSecurityPolicy: { useDefaults: false, directives: contentSecurityPolicy(config) },
    crossOriginEmbedderPolicy: false,
    // HSTS only makes sense where the deployment is served over TLS.
    strictTransportSecurity: config.publicUrl.startsWith('https:'),
  });
  app.addHook('onRequest', (req, reply, done) =>
    securityHeaders(req.raw, reply.raw, (error?: unknown) =>
      done(error instanceof Error ? error : undefined),
    ),
  );
  // A guard against floods of API calls, per signed-in caller, counted across instances (http/rate-limit.ts).
  await registerRateLimit(app, config, database);

  app.get('/api/health', { config: { auth: 'public' } }, async (_req, reply) => {
    try {
      await database.ping();
      return { status: 'ok', database: database.engine };
    } catch {
      return reply.code(503).send({ status: 'unavailable', database: database.engine });
    }
  });

  // Readiness, for a load balancer: 200 while this instance takes requests, 503 from the moment it
  // is told to stop (main.ts), so traffic goes elsewhere before it closes. Never the database's
  // state (that is /api/health): a probe every few seconds from each balancer costs nothing here.
  let serving = true;
  app.get('/api/ready', { config: { auth: 'public' } }, async (_req, reply) =>
    serving
      ? { status: 'ready' }
      : reply.code(503).header('connection', 'close').send({ status: 'stopping' }),
  );

  const configScript = webConfigScript(config);
  app.get('/api/config.js', { config: { auth: 'public' } }, async (_req, reply) => {
    // A script, never a document: no page policies (see DOCUMENT_ONLY_HEADERS).
    for (const name of DOCUMENT_ONLY_HEADERS) reply.removeHeader(name);
    return reply.type('application/javascript').header('cache-control', 'no-store').send(configScript);
  });

  if (keys) {
    await registerIdp(app, {
      db: database.db,
      config,
      keys,
      mailer,
      secrets,
      onSignIn: logMemberSignIn,
      onEvent: logMemberSecurityEvent,
      preSignUp: confirmInvitedSignUp,
      beforeDeleteUser: leaveFirmsOnAccountDeletion,
      mfaRequired: firmRequiresMfa,
    });
  }

  // File storage: the upload and download routes, and the procedures that copy a stored file.
  const storage = await createStorage(config);

  // The procedures' answers are compressed when the caller accepts it and they are over 1 KB
  // (lists, the dashboard); smaller ones cost more to compress than they save. In a scope of its
  // own: the identity provider, file downloads (already compressed or streamed with a length) and
  // exports keep their bytes as they are.
  await app.register(async (procedures) => {
    // Request bodies are taken only as sent: a compressed one would be a way round the body limit's
    // intent (a few KB that inflate to the limit on every call).
    // tRPC answers with a fetch Response, which compression can only stream, whatever its size. The
    // answer is a whole JSON document already in memory (the web app batches, never streams), so
    // it is handed on as bytes: compression then keeps its threshold and sends a length.
    procedures.addHook('onSend', async (_req, reply, payload) => {
      if (!(payload instanceof Response)) return payload;
      reply.code(payload.status);
      // Framing is Node's to choose for the bytes it sends (a length here): tRPC's
      // `transfer-encoding: chunked` on a jsonl answer, copied beside that length, made an answer
      // HTTP forbids (Node's own client refuses it).
      for (const [name, value] of payload.headers) if (!HOP_BY_HOP.has(name)) reply.header(name, value);
      // A JSON answer is never a page: the app page's policies (about 0.5 KB, on each of the three
      // or four calls of a first screen) say nothing on it. A policy that allows nothing, nosniff and
      // the resource policy still cover it if someone opens or frames its URL.
      for (const name of DOCUMENT_ONLY_HEADERS) reply.removeHeader(name);
      reply.header('content-security-policy', API_POLICY);
      return Buffer.from(await payload.arrayBuffer());
    });
    await procedures.register(compress, {
      threshold: 1024,
      encodings: ['br', 'gzip'],
      globalDecompression: false,
    });
    await procedures.register(fastifyTRPCPlugin, {
      prefix: '/api/trpc',
      trpcOptions: {
        router: appRouter,
        // The web app sends a query with a large input as a POST (src/web/lib/trpc.ts).
        allowMethodOverride: true,
        createContext: makeCreateContext({ database, config, staffAuth, mailer, storage }),
        onError({ error, path: procedure, req }) {
          if (error.code === 'INTERNAL_SERVER_ERROR')
            req.log.error({ err: error.cause ?? error, procedure }, 'procedure failed');
        },
      } satisfies FastifyTRPCPluginOptions<AppRouter>['trpcOptions'],
    });
  });

  registerSystemLogExport(app, { db: database.db });
  registerBroadcastRoutes(app, { db: database.db, config });
  registerLogoRoute(app, database.db);
  registerDocumentRoutes(app, {
    db: database.db,
    storage,
    maxBytes: config.storage.maxBytes,
    uploadTargetForTask,
  });
  registerPortalDocumentRoutes(app, { db: database.db, storage, maxBytes: config.storage.maxBytes });
  registerRequestUploadRoute(app, { db: database.db, storage, maxBytes: config.storage.maxBytes });
  registerMessageRoutes(app, { db: database.db, storage, maxBytes: config.storage.maxBytes });
  registerInboundWebhook(app, { db: database.db, config, storage });
  registerLeaveAttachmentRoutes(app, { db: database.db, storage });
  registerClientExport(app, { db: database.db });
  registerInvoiceExport(app, { db: database.db });
  registerInvoicePdfRoute(app, { db: database.db });
  registerSigningRoutes(app, { db: database.db, storage });
  registerFirmExportRoutes(app, { db: database.db, storage });
  registerReportExports(app, { db: database.db });
  registerBillingRoutes(app, { db: database.db });
  await registerClientImportRoutes(app, { db: database.db });
  // The public REST API (/api/v1) with its keys, OpenAPI document and reference page.
  await registerPublicApi(app, { database, config, mailer, storage, router: appRouter });
  registerAccountingExport(app, { db: database.db });

  app.all('/api/*', { config: { auth: 'public' } }, async (req, reply) =>
    reply.code(404).send({ error: 'Not Found', path: req.url }),
  );

  await registerWeb(app, webDir);

  // Background jobs run in every instance that has them on; the queue keeps instances from
  // doing the same work twice. The first poll comes one interval after the server listens: it
  // schedules and runs a dozen periodic jobs, ~200 ms of PGlite's one thread that a start's first
  // requests would otherwise wait behind. They stop (finishing the jobs in hand) when it closes,
  // which the SIGTERM shutdown in main.ts does before the database closes.
  let worker: TWorker | null = null;
  if (config.jobs.enabled) {
    registerJobs(storage);
    registerBackupJob({ config, database, storage });
    worker = createWorker({ db: database.db, config, mailer, log: app.log }, { pollMs: config.jobs.pollMs });
    const started = worker;
    app.addHook('onListen', async () => started.start(config.jobs.pollMs));
    app.addHook('onClose', async () => started.stop());
  }
  // Inbound mail's SMTP listener (off unless INBOUND_MAIL_DOMAIN and INBOUND_SMTP_PORT are set): it
  // opens with the HTTP listener and closes with it.
  const inboundSmtp: { port: number | null; close?: () => Promise<void> } = { port: null };
  app.addHook('onListen', async () => {
    const started = await startInboundSmtp({ db: database.db, config, storage }, app.log);
    if (started) Object.assign(inboundSmtp, started);
  });
  app.addHook('onClose', async () => inboundSmtp.close?.());
  // A plain object: a Fastify instance is thenable, so returning it from an async function would
  // unwrap it and lose anything attached to it.
  const stopServing = () => {
    serving = false;
  };
  return { app, keys, staffAuth, worker, storage, mailer, stopServing, inboundSmtp };
}

/** Headers about one connection's framing, never copied from a Response into another answer. */
const HOP_BY_HOP = new Set(['transfer-encoding', 'content-length', 'connection', 'keep-alive']);

/** Helmet's headers that only a document (or a worker) reads. */
const DOCUMENT_ONLY_HEADERS = [
  'content-security-policy',
  'cross-origin-opener-policy',
  'origin-agent-cluster',
  'referrer-policy',
  'strict-transport-security',
  'x-dns-prefetch-control',
  'x-download-options',
  'x-frame-options',
  'x-permitted-cross-domain-policies',
  'x-xss-protection',
];

/** A procedure's answer, opened or framed on its own, may load and run nothing. */
const API_POLICY = "default-src 'none';frame-ancestors 'none'";

function trustHops(hops: number) {
  return (_address: string, hop: number) => hop < hops;
}

/** Serves the built SPA; every non-API, non-asset path gets index.html so the router decides. */
async function registerWeb(app: FastifyInstance, webDir: string) {
  const indexFile = path.join(webDir, 'index.html');
  if (!fs.existsSync(indexFile)) {
    app.log.warn(`No built web app at ${webDir}: run "npm run build" (npm run dev serves it through Vite).`);
    return;
  }
  // The hashed assets (scripts, styles, fonts: about 800 files with their .br and .gz copies) are
  // served under one wildcard route, not a route each, which took a walk of the directory and
  // 0.15 s of every start. A name that is no file there answers 404 (the not-found handler below).
  await app.register(fastifyStatic, {
    root: path.join(webDir, 'assets'),
    prefix: '/assets/',
    wildcard: true,
    index: false,
    // The .br and .gz files written at build time (scripts/precompress.ts), chosen by the
    // request's Accept-Encoding, with Vary: Accept-Encoding.
    preCompressed: true,
    setHeaders(res) {
      res.header('cache-control', 'public, max-age=31536000, immutable');
      // A script, style or font is never a document: the document policies helmet sends with
      // every answer mean nothing on it, and they were about a sixth of a first screen's bytes
      // (a screen loads 30-60 of these). nosniff and the resource policy still apply.
      for (const name of DOCUMENT_ONLY_HEADERS) res.raw.removeHeader(name);
      // Its hashed name is its version and it is never revalidated (immutable), so validators
      // and range support are bytes for nothing on each of them.
      for (const name of ['etag', 'last-modified', 'accept-ranges']) res.removeHeader(name);
    },
  });
  // The few files at the top (favicon, theme script), a route each; any other path is the app's.
  await app.register(fastifyStatic, {
    root: webDir,
    wildcard: false,
    globIgnore: ['assets/**'],
    index: false,
    preCompressed: true,
    decorateReply: false,
    setHeaders(res, filePath) {
      // The theme script is never a document either (the favicon, an SVG, could be opened as one). The
      // path is the file sent: theme.js.br when the browser takes brotli.
      if (/\.js(\.br|\.gz)?$/.test(filePath))
        for (const name of DOCUMENT_ONLY_HEADERS) res.raw.removeHeader(name);
    },
  });
  // The app pages, sent by the not-found handler for every client-side path, in the build-time
  // variant the browser accepts: the portal's own page (its routes only, a lighter first load) for
  // the portal's paths, the staff app's for the rest. A build without portal.html sends index.html.
  const staffPage = readPage(indexFile);
  const portalFile = path.join(webDir, 'portal.html');
  const portalPage = fs.existsSync(portalFile) ? readPage(portalFile) : staffPage;
  app.setNotFoundHandler((req, reply) => {
    const pathname = req.url.split('?')[0] ?? '/';
    // A missing hashed chunk must be a real 404, not HTML: the chunk-reload guard depends on it.
    if (req.method !== 'GET' || pathname.startsWith('/assets/') || pathname.startsWith('/api/')) {
      return reply.code(404).send({ error: 'Not Found' });
    }
    const page = isPortalPath(pathname) ? portalPage : staffPage;
    reply.type('text/html').header('cache-control', 'no-cache').header('vary', 'accept-encoding');
    const encoding = negotiate(req.headers['accept-encoding'] ?? '', [...page.encoded.keys()]);
    const body = encoding ? page.encoded.get(encoding) : undefined;
    return body ? reply.header('content-encoding', encoding).send(body) : reply.send(page.plain);
  });
}

/** An app page and its precompressed variants (scripts/precompress.ts), by encoding. */
function readPage(file: string): { plain: Buffer; encoded: Map<string, Buffer> } {
  const encoded = new Map<string, Buffer>();
  for (const [encoding, suffix] of [
    ['br', '.br'],
    ['gzip', '.gz'],
  ] as const) {
    if (fs.existsSync(file + suffix)) encoded.set(encoding, fs.readFileSync(file + suffix));
  }
  return { plain: fs.readFileSync(file), encoded };
}
