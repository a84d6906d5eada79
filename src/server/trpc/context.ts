import type { FastifyReply, FastifyRequest } from 'fastify';
import type { TConfig } from '../config';
import type { TDatabase } from '../db/client';
import type { TStaffAuth } from '../idp/staff-auth';

export type TRequestMeta = { ip: string; userAgent: string | null };

export type TContext = {
  db: TDatabase['db'];
  config: TConfig;
  req: FastifyRequest;
  res: FastifyReply;
  meta: TRequestMeta;
  staffAuth: TStaffAuth;
  /** Memoised per request: a batch of ten calls verifies the token once. */
  staffSession: () => Promise<TStaffSession | null>;
};

export type TStaffSession = {
  sub: string;
  username: string;
  memberId: string;
  orgId: string;
  isOwner: boolean;
  permissions: readonly string[];
  assignedClientsOnly: boolean;
};

export type TContextDeps = { database: TDatabase; config: TConfig; staffAuth: TStaffAuth };

export function makeCreateContext(deps: TContextDeps) {
  return ({ req, res }: { req: FastifyRequest; res: FastifyReply }): TContext => {
    let session: Promise<TStaffSession | null> | undefined;
    return {
      db: deps.database.db,
      config: deps.config,
      req,
      res,
      meta: { ip: req.ip, userAgent: req.headers['user-agent'] ?? null },
      staffAuth: deps.staffAuth,
      staffSession: () => {
        session ??= deps.staffAuth.resolve(req);
        return session;
      },
    };
  };
}
