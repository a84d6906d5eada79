import type { FastifyReply, FastifyRequest } from 'fastify';
import { portalSessionOf, requestMeta, type TPortalSession, type TRequestMeta } from '../auth';
import type { TConfig } from '../config';
import type { TDatabase } from '../db/client';
import type { TStorage } from '../files/storage';
import type { TStaffAuth, TStaffIdentity } from '../idp/staff-auth';
import type { TMailer } from '../mail';

export type TContext = {
  db: TDatabase['db'];
  config: TConfig;
  /**
   * The process's one mailer, for what must go out at the moment of the request (the portal's
   * sign-in code). Anything a change causes is queued in its transaction instead (enqueueMail).
   */
  mailer: TMailer;
  /** The file store, for a procedure that copies a stored file (uploads and downloads are routes). */
  storage: TStorage;
  req: FastifyRequest;
  res: FastifyReply;
  meta: TRequestMeta;
  /** Memoised per request: a batch of ten calls verifies the token once. */
  staffIdentity: () => Promise<TStaffIdentity | null>;
  /** Memoised per request, like staffIdentity: the portal session the httpOnly cookie carries. */
  portalSession: () => Promise<TPortalSession | null>;
};

export type TContextDeps = {
  database: TDatabase;
  config: TConfig;
  staffAuth: TStaffAuth;
  mailer: TMailer;
  storage: TStorage;
};

export function makeCreateContext(deps: TContextDeps) {
  return ({ req, res }: { req: FastifyRequest; res: FastifyReply }): TContext => {
    let identity: Promise<TStaffIdentity | null> | undefined;
    let portal: Promise<TPortalSession | null> | undefined;
    return {
      db: deps.database.db,
      config: deps.config,
      mailer: deps.mailer,
      storage: deps.storage,
      req,
      res,
      meta: requestMeta(req),
      staffIdentity: () => {
        identity ??= deps.staffAuth.resolve(req);
        return identity;
      },
      portalSession: () => {
        portal ??= portalSessionOf(deps.database.db, req);
        return portal;
      },
    };
  };
}
