import { isIP } from 'node:net';
import path from 'node:path';
import { z } from 'zod';
import { POOL_ID_MAX_LENGTH } from '../domain/constants';

// Read once from the environment at start. A bad value stops start-up with one line naming the
// variable, so an operator never chases a misconfiguration through a running server.

const optional = z
  .string()
  .trim()
  .transform((v) => (v === '' ? undefined : v))
  .optional();

const optionalUrl = (name: string) =>
  optional.pipe(
    z
      .string()
      .refine((v) => URL.canParse(v), `${name} must be an absolute URL`)
      .transform((v) => v.replace(/\/+$/, ''))
      .optional(),
  );

const bool = z
  .enum(['true', 'false', '1', '0', 'yes', 'no', ''])
  .optional()
  .transform((v) => v === 'true' || v === '1' || v === 'yes');

const TRUST_PROXY_HELP =
  'set the number of proxies in front of the server (e.g. 1 behind one load balancer) or their addresses/CIDRs, comma-separated (e.g. 10.0.0.0/8); trusting every sender would let any client choose its own address';

const proxyAddress = (v: string) => {
  if (['loopback', 'linklocal', 'uniquelocal'].includes(v)) return true;
  const [ip, prefix, extra] = v.split('/');
  const family = isIP(ip ?? '');
  if (family === 0 || extra !== undefined) return false;
  if (prefix === undefined) return true;
  return /^\d{1,3}$/.test(prefix) && Number(prefix) <= (family === 4 ? 32 : 128);
};

/**
 * Which hops to believe `X-Forwarded-For` from: a count of proxies or their addresses, never
 * everyone (a client could then write its own address and escape every per-address limit).
 */
const trustProxy = optional.transform((v, ctx): false | number | string[] => {
  if (v === undefined || ['false', '0', 'no'].includes(v)) return false;
  if (/^\d+$/.test(v)) return Number(v);
  if (['true', 'yes', 'all', '*'].includes(v.toLowerCase())) {
    ctx.addIssue({
      code: 'custom',
      message: `"${v}" would trust any client's X-Forwarded-For: ${TRUST_PROXY_HELP}`,
    });
    return z.NEVER;
  }
  const list = v
    .split(',')
    .map((a) => a.trim())
    .filter(Boolean);
  const bad = list.find((a) => !proxyAddress(a));
  if (bad !== undefined) {
    ctx.addIssue({ code: 'custom', message: `"${bad}" is not an address or CIDR: ${TRUST_PROXY_HELP}` });
    return z.NEVER;
  }
  return list;
});

/** Like bool, but on unless set off. */
const boolOn = z
  .enum(['true', 'false', '1', '0', 'yes', 'no', ''])
  .optional()
  .transform((v) => !(v === 'false' || v === '0' || v === 'no'));

/** Off unless set to true, 1 or yes. */
const boolOff = z
  .enum(['true', 'false', '1', '0', 'yes', 'no', ''])
  .optional()
  .transform((v) => v === 'true' || v === '1' || v === 'yes');

const ZEnv = z.object({
  NODE_ENV: z.enum(['development', 'production', 'test']).default('production'),
  PORT: z.coerce.number().int().min(0).max(65535).default(3000),
  HOST: z.string().default('0.0.0.0'),
  PUBLIC_URL: optionalUrl('PUBLIC_URL'),
  DATA_DIR: z.string().default('./data'),
  DATABASE_URL: optional.pipe(
    z
      .string()
      .regex(/^postgres(ql)?:\/\//, 'DATABASE_URL must start with postgres:// or postgresql://')
      .optional(),
  ),
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
  TRUST_PROXY: trustProxy,
  /** Analytics and the tag manager run only when the page's host equals this (SPEC.md §1). */
  PRODUCTION_HOST: optional,
  POSTHOG_KEY: optional,
  POSTHOG_HOST: optionalUrl('POSTHOG_HOST'),
  GTM_ID: optional.pipe(
    z
      .string()
      .regex(/^GTM-[0-9A-Z]+$/, 'GTM_ID must match GTM-[0-9A-Z]+')
      .optional(),
  ),
  CHAT_BASE_URL: optionalUrl('CHAT_BASE_URL'),
  CHAT_WEBSITE_TOKEN: optional,
  SMTP_URL: optional.pipe(
    z
      .string()
      .regex(/^smtps?:\/\//, 'SMTP_URL must start with smtp:// or smtps://')
      .optional(),
  ),
  MAIL_FROM: z.string().default('Practice <no-reply@localhost>'),
  // Inbound mail for client messages (issue 38): off unless a domain is given. The SMTP listener runs
  // only with a port too; a provider's inbound webhook needs the secret.
  INBOUND_MAIL_DOMAIN: optional.pipe(
    z
      .string()
      .regex(
        /^[a-z0-9.-]+\.[a-z]{2,}$|^localhost$/i,
        'INBOUND_MAIL_DOMAIN must be a domain name like mail.example.com',
      )
      .optional(),
  ),
  INBOUND_SMTP_PORT: optional.pipe(z.coerce.number<string | undefined>().int().min(0).max(65535).optional()),
  INBOUND_SMTP_HOST: z.string().default('0.0.0.0'),
  INBOUND_MAX_BYTES: z.coerce
    .number()
    .int()
    .positive()
    .default(25 * 1024 * 1024),
  INBOUND_WEBHOOK_SECRET: optional.pipe(
    z.string().min(16, 'INBOUND_WEBHOOK_SECRET must be at least 16 characters').optional(),
  ),
  STORAGE_DRIVER: z.enum(['local', 's3']).default('local'),
  S3_ENDPOINT: optionalUrl('S3_ENDPOINT'),
  S3_REGION: z.string().default('us-east-1'),
  S3_BUCKET: optional,
  S3_ACCESS_KEY_ID: optional,
  S3_SECRET_ACCESS_KEY: optional,
  S3_FORCE_PATH_STYLE: bool,
  UPLOAD_MAX_BYTES: z.coerce
    .number()
    .int()
    .positive()
    .default(100 * 1024 * 1024),
  IDP_USER_POOL_ID: z
    .string()
    .regex(/^[\w-]+_[0-9a-zA-Z]+$/, 'IDP_USER_POOL_ID must look like region_suffix')
    .max(POOL_ID_MAX_LENGTH, `IDP_USER_POOL_ID must be at most ${POOL_ID_MAX_LENGTH} characters`)
    .default('local-1_Practice'),
  IDP_CLIENT_ID: z.string().min(1, 'IDP_CLIENT_ID is required').default('practiceweb'),
  /** embedded: the server's own identity provider; cognito: an Amazon Cognito user pool. */
  IDP_MODE: z.enum(['embedded', 'cognito']).default('embedded'),
  /** Cognito mode only: overrides of the pool's issuer and API endpoint (private endpoints, tests). */
  IDP_ISSUER: optionalUrl('IDP_ISSUER'),
  IDP_ENDPOINT: optionalUrl('IDP_ENDPOINT'),
  /**
   * Embedded only: the pool's MFA configuration, as Cognito's MfaConfiguration. OPTIONAL: each person
   * chooses; ON: everyone sets up TOTP at their next sign-in; OFF: no TOTP at all.
   */
  IDP_MFA: z.enum(['OFF', 'OPTIONAL', 'ON']).default('OPTIONAL'),
  /**
   * Embedded only: where hosted sign-in (/oauth2/authorize) may send a code, and /logout may send
   * the browser, comma-separated exact URLs. Unset: any address on the app's own origin(s).
   */
  IDP_CALLBACK_URLS: optional.pipe(z.string().transform(urlList('IDP_CALLBACK_URLS')).optional()),
  IDP_LOGOUT_URLS: optional.pipe(z.string().transform(urlList('IDP_LOGOUT_URLS')).optional()),
  /**
   * Embedded only: external OpenID Connect providers for hosted sign-in, a JSON list of
   * `{"name","issuer","clientId","clientSecret"}`; `identity_provider=<name>` on /oauth2/authorize.
   */
  IDP_OIDC_PROVIDERS: optional.pipe(z.string().transform(parseProviders).optional()),
  /** The host[:port][/path] Amplify's hosted sign-in uses (https:// is added); derived when unset. */
  IDP_OAUTH_DOMAIN: optional,
  /** A second, HTTPS listener with a self-signed certificate made at first start (laptops). */
  HTTPS_PORT: optional.pipe(
    z
      .string()
      .regex(/^\d{1,5}$/, 'HTTPS_PORT must be a port number')
      .transform(Number)
      .pipe(z.number().int().min(1).max(65535))
      .optional(),
  ),
  RATE_LIMIT_PER_MINUTE: z.coerce.number().int().positive().default(600),
  /** Calls one public-API key may make per minute, counted across instances like the limit above. */
  API_KEY_RATE_PER_MINUTE: z.coerce.number().int().positive().default(120),
  /**
   * Webhook targets on private, loopback or link-local addresses are refused (a firm's webhook must
   * not reach the server's own network) unless this is true: a deployment whose receivers are on
   * its own network, and the tests.
   */
  WEBHOOKS_ALLOW_PRIVATE: boolOff,
  /** Where the per-call rate limit counts when several instances share it (http/rate-limit-store.ts). */
  REDIS_URL: optional.pipe(
    z
      .string()
      .regex(/^rediss?:\/\//, 'REDIS_URL must start with redis:// or rediss://')
      .optional(),
  ),
  /** PostgreSQL only: connections this instance's pool may open (one more LISTENs). */
  DATABASE_POOL_MAX: z.coerce.number().int().min(1).max(1000).default(10),
  /** PostgreSQL only: a statement running longer is cancelled (0: never). */
  DATABASE_STATEMENT_TIMEOUT_MS: z.coerce.number().int().min(0).max(86_400_000).default(0),
  /** Local storage only: DATA_DIR/files is one directory every instance mounts. */
  FILES_SHARED: bool,
  /** Whether this instance runs background jobs (reminders, recurring work). */
  JOBS_ENABLED: boolOn,
  JOBS_POLL_MS: z.coerce.number().int().min(50, 'JOBS_POLL_MS must be at least 50').default(1000),
  /** On SIGTERM/SIGINT, how long in-flight requests may take before their connections are cut. */
  SHUTDOWN_GRACE_MS: z.coerce.number().int().min(0).max(600_000).default(10_000),
  /** Embedded (PGlite) only: hours between scheduled backups; 0 turns them off. */
  BACKUP_INTERVAL_HOURS: z.coerce
    .number()
    .int()
    .min(0)
    .max(24 * 31)
    .default(24),
  /** How many scheduled backups are kept (the oldest beyond this are deleted). */
  BACKUP_KEEP: z.coerce.number().int().min(1).max(1000).default(7),
  /** Where scheduled backups are written; DATA_DIR/backups when unset. */
  BACKUP_DIR: optional,
  /** The vault's master keys, `id:base64key,…`, the first one current (features/vault/keys.ts). */
  VAULT_KEYS: optional.pipe(z.string().transform(parseVaultKeys).optional()),
});

function urlList(name: string) {
  return (value: string, ctx: z.RefinementCtx) => {
    const list = value
      .split(',')
      .map((v) => v.trim())
      .filter(Boolean);
    const bad = list.find((v) => !URL.canParse(v) || !/^https?:$/.test(new URL(v).protocol));
    if (bad !== undefined) {
      ctx.addIssue({ code: 'custom', message: `"${bad}" is not an absolute http(s) URL (${name})` });
      return z.NEVER;
    }
    return list;
  };
}

const ZProvider = z.object({
  name: z
    .string()
    .regex(/^[A-Za-z0-9][A-Za-z0-9 ._-]{0,31}$/, 'name: letters, digits, space . _ -, at most 32')
    .refine((v) => v.toUpperCase() !== 'COGNITO', 'name: COGNITO is the pool itself'),
  // Plain http only on this machine (a test's or a developer's provider).
  issuer: z
    .string()
    .refine(
      (v) =>
        URL.canParse(v) &&
        (new URL(v).protocol === 'https:' ||
          (new URL(v).protocol === 'http:' &&
            ['localhost', '127.0.0.1', '[::1]'].includes(new URL(v).hostname))),
      'issuer must be an https:// URL (http:// only on localhost)',
    ),
  clientId: z.string().min(1),
  clientSecret: z.string().min(1),
});

export type TOidcProvider = z.infer<typeof ZProvider>;

function parseProviders(value: string, ctx: z.RefinementCtx): TOidcProvider[] {
  let json: unknown;
  try {
    json = JSON.parse(value);
  } catch {
    ctx.addIssue({
      code: 'custom',
      message: 'must be a JSON list of {name, issuer, clientId, clientSecret}',
    });
    return z.NEVER;
  }
  const parsed = z.array(ZProvider).safeParse(json);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    ctx.addIssue({ code: 'custom', message: `${issue?.path.join('.')}: ${issue?.message}` });
    return z.NEVER;
  }
  const names = parsed.data.map((p) => p.name.toLowerCase());
  if (new Set(names).size !== names.length) {
    ctx.addIssue({ code: 'custom', message: 'two providers share a name' });
    return z.NEVER;
  }
  return parsed.data;
}

export type TVaultMasterKey = { id: string; key: Buffer };

/** `id:base64,id2:base64`: ids are short names, keys 32 random bytes; the first encrypts new entries. */
function parseVaultKeys(value: string, ctx: z.RefinementCtx): TVaultMasterKey[] {
  const keys: TVaultMasterKey[] = [];
  for (const part of value
    .split(',')
    .map((p) => p.trim())
    .filter(Boolean)) {
    const at = part.indexOf(':');
    const id = at > 0 ? part.slice(0, at) : '';
    const encoded = part.slice(at + 1);
    if (!/^[A-Za-z0-9_.-]{1,40}$/.test(id)) {
      ctx.addIssue({
        code: 'custom',
        message: 'each key must be id:base64key, the id in letters, digits, . _ -',
      });
      return z.NEVER;
    }
    const key = Buffer.from(encoded, 'base64');
    if (key.length !== 32 || key.toString('base64') !== encoded) {
      ctx.addIssue({
        code: 'custom',
        message: `key ${id} must be 32 bytes in base64 (openssl rand -base64 32)`,
      });
      return z.NEVER;
    }
    if (keys.some((k) => k.id === id)) {
      ctx.addIssue({ code: 'custom', message: `key id ${id} appears twice` });
      return z.NEVER;
    }
    keys.push({ id, key });
  }
  if (!keys.length) {
    ctx.addIssue({ code: 'custom', message: 'give at least one id:base64key' });
    return z.NEVER;
  }
  return keys;
}

export type TConfig = ReturnType<typeof loadConfig>;

export class ConfigError extends Error {}

export function loadConfig(env: NodeJS.ProcessEnv = process.env) {
  const parsed = ZEnv.safeParse(env);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    const name = String(issue?.path[0] ?? 'environment');
    throw new ConfigError(`Invalid configuration: ${name}: ${issue?.message ?? 'invalid value'}`);
  }
  const e = parsed.data;
  if (e.STORAGE_DRIVER === 's3' && !e.S3_BUCKET) {
    throw new ConfigError('Invalid configuration: S3_BUCKET: required when STORAGE_DRIVER is s3');
  }
  const dataDir = path.resolve(e.DATA_DIR);
  const publicUrl = e.PUBLIC_URL ?? `http://localhost:${e.PORT}`;
  if (e.IDP_MODE === 'cognito' && !env.IDP_CLIENT_ID) {
    throw new ConfigError(
      "Invalid configuration: IDP_CLIENT_ID: required when IDP_MODE is cognito (the pool's app client id)",
    );
  }
  // Several instances share PostgreSQL, so they must share the vault's key: a key file per machine
  // would make one instance's passwords unreadable to the others.
  if (e.DATABASE_URL && !e.VAULT_KEYS) {
    throw new ConfigError(
      'Invalid configuration: VAULT_KEYS: required when DATABASE_URL is set (every instance must share the vault key)',
    );
  }
  const region = e.IDP_USER_POOL_ID.split('_')[0] ?? '';
  const idp =
    e.IDP_MODE === 'embedded'
      ? {
          mode: 'embedded' as const,
          userPoolId: e.IDP_USER_POOL_ID,
          clientId: e.IDP_CLIENT_ID,
          issuer: `${publicUrl}/api/idp/${e.IDP_USER_POOL_ID}`,
          mfa: e.IDP_MFA,
          hosted: {
            callbackUrls: e.IDP_CALLBACK_URLS ?? null,
            logoutUrls: e.IDP_LOGOUT_URLS ?? null,
            providers: e.IDP_OIDC_PROVIDERS ?? [],
          },
          /** Where the browser posts the protocol: same origin, so no CORS. */
          endpoint: null,
        }
      : {
          mode: 'cognito' as const,
          userPoolId: e.IDP_USER_POOL_ID,
          clientId: e.IDP_CLIENT_ID,
          issuer: e.IDP_ISSUER ?? `https://cognito-idp.${region}.amazonaws.com/${e.IDP_USER_POOL_ID}`,
          endpoint: e.IDP_ENDPOINT ?? `https://cognito-idp.${region}.amazonaws.com/`,
        };
  // The HTTPS listener serves the same app on the public URL's host; Amplify needs an https:// domain.
  const httpsOrigin = e.HTTPS_PORT ? `https://${new URL(publicUrl).hostname}:${e.HTTPS_PORT}` : null;
  const oauthDomain =
    e.IDP_OAUTH_DOMAIN ??
    (e.IDP_MODE !== 'embedded'
      ? null
      : publicUrl.startsWith('https:')
        ? `${new URL(publicUrl).host}/api/idp`
        : httpsOrigin
          ? `${new URL(httpsOrigin).host}/api/idp`
          : null);
  return {
    env: e.NODE_ENV,
    https: e.HTTPS_PORT
      ? { port: e.HTTPS_PORT, origin: httpsOrigin ?? '', certDir: path.join(dataDir, 'tls') }
      : null,
    oauthDomain,
    port: e.PORT,
    host: e.HOST,
    publicUrl,
    dataDir,
    databaseUrl: e.DATABASE_URL,
    pool: { max: e.DATABASE_POOL_MAX, statementTimeoutMs: e.DATABASE_STATEMENT_TIMEOUT_MS },
    redisUrl: e.REDIS_URL,
    /** Whether PUBLIC_URL was given (its default names this machine, which no load balancer is). */
    publicUrlSet: e.PUBLIC_URL !== undefined,
    logLevel: e.LOG_LEVEL,
    trustProxy: e.TRUST_PROXY,
    rateLimitPerMinute: e.RATE_LIMIT_PER_MINUTE,
    apiKeyRatePerMinute: e.API_KEY_RATE_PER_MINUTE,
    webhooks: { allowPrivate: e.WEBHOOKS_ALLOW_PRIVATE },
    jobs: { enabled: e.JOBS_ENABLED, pollMs: e.JOBS_POLL_MS },
    shutdownGraceMs: e.SHUTDOWN_GRACE_MS,
    mail: { smtpUrl: e.SMTP_URL, from: e.MAIL_FROM, outboxDir: path.join(dataDir, 'mail') },
    /** Replies and forwarded mail into client messages; null: off (no reply addresses are given). */
    inbound: e.INBOUND_MAIL_DOMAIN
      ? {
          domain: e.INBOUND_MAIL_DOMAIN.toLowerCase(),
          smtpPort: e.INBOUND_SMTP_PORT ?? null,
          smtpHost: e.INBOUND_SMTP_HOST,
          maxBytes: e.INBOUND_MAX_BYTES,
          webhookSecret: e.INBOUND_WEBHOOK_SECRET ?? null,
        }
      : null,
    storage: {
      driver: e.STORAGE_DRIVER,
      localDir: path.join(dataDir, 'files'),
      s3: {
        endpoint: e.S3_ENDPOINT,
        region: e.S3_REGION,
        bucket: e.S3_BUCKET,
        accessKeyId: e.S3_ACCESS_KEY_ID,
        secretAccessKey: e.S3_SECRET_ACCESS_KEY,
        forcePathStyle: e.S3_FORCE_PATH_STYLE,
      },
      maxBytes: e.UPLOAD_MAX_BYTES,
      filesShared: e.FILES_SHARED,
    },
    idp,
    vault: { keys: e.VAULT_KEYS ?? null, keyFile: path.join(dataDir, 'vault.key') },
    backup: {
      intervalHours: e.BACKUP_INTERVAL_HOURS,
      keep: e.BACKUP_KEEP,
      dir: e.BACKUP_DIR ? path.resolve(e.BACKUP_DIR) : path.join(dataDir, 'backups'),
    },
    web: {
      productionHost: e.PRODUCTION_HOST,
      posthog: e.POSTHOG_KEY
        ? { key: e.POSTHOG_KEY, host: e.POSTHOG_HOST ?? 'https://us.i.posthog.com' }
        : undefined,
      gtmId: e.GTM_ID,
      chat:
        e.CHAT_BASE_URL && e.CHAT_WEBSITE_TOKEN
          ? { baseUrl: e.CHAT_BASE_URL, websiteToken: e.CHAT_WEBSITE_TOKEN }
          : undefined,
    },
  };
}
