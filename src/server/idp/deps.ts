import type { TConfig } from '../config';
import type { TDb, TExecutor } from '../db/client';
import type { TMailer } from '../mail';
import type { IdpKeys } from './keys';

export type TIdpDeps = {
  db: TDb;
  config: TConfig;
  keys: IdpKeys;
  mailer: TMailer;
  /**
   * Called in the transaction that starts a sign-in (a password or device sign-in, not a refresh),
   * with the user's sub and the caller: the app writes the firms' system-log rows here, so the
   * provider itself knows nothing of firms.
   */
  onSignIn?: (tx: TExecutor, signIn: { sub: string; ip: string; userAgent: string | null }) => Promise<void>;
};

/** What every operation sees: the dependencies, the pool's names and the caller. */
export type TIdpContext = TIdpDeps & {
  issuer: string;
  /** The part of the pool id after `_`: it enters the SRP hash. */
  poolName: string;
  region: string;
  ip: string;
  userAgent: string | null;
};

export type TBody = Record<string, unknown>;
export type TOperation = (ctx: TIdpContext, body: TBody) => Promise<object>;
