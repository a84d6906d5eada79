import type { TConfig } from '../config';
import type { TDb, TExecutor } from '../db/client';
import type { TMailer } from '../mail';
import type { IdpKeys } from './keys';

/** Seals secrets at rest (the vault's envelope encryption, handed over by app.ts). */
export type TIdpSecrets = {
  seal(plaintext: string, context: string): Promise<string>;
  open(sealed: string, context: string): Promise<string>;
  mac(data: string): Promise<string>;
};

/** What the app may log of a person's security: the provider itself knows nothing of firms. */
export type TIdpEvent =
  | { kind: 'sign_in_failed'; reason: 'password' | 'mfa_code' | 'email_code' }
  | { kind: 'locked_out'; reason: 'password' | 'mfa_code' | 'email_code'; seconds: number }
  | { kind: 'mfa_changed'; totp: 'verified' | 'enabled' | 'disabled' | 'preferred' | 'not_preferred' }
  | { kind: 'email_mfa_changed'; change: 'enabled' | 'disabled' | 'preferred' | 'not_preferred' }
  | {
      kind: 'device_changed';
      change: 'remembered' | 'not_remembered' | 'forgotten';
      deviceName: string | null;
    }
  | { kind: 'signed_out_everywhere' }
  | { kind: 'recovery_code_used'; left: number }
  | { kind: 'recovery_codes_made' };

export type TIdpDeps = {
  db: TDb;
  config: TConfig;
  keys: IdpKeys;
  mailer: TMailer;
  secrets: TIdpSecrets;
  /**
   * Called in the transaction that starts a sign-in (a password or device sign-in, not a refresh),
   * with the user's sub and the caller: the app writes the firms' system-log rows here, so the
   * provider itself knows nothing of firms.
   */
  onSignIn?: (tx: TExecutor, signIn: { sub: string; ip: string; userAgent: string | null }) => Promise<void>;
  /**
   * Cognito's pre sign-up trigger: asked by SignUp before it creates the user. Answering
   * `autoConfirmUser` confirms the user without a code (no message is sent); `autoVerifyEmail` marks
   * the email verified.
   */
  preSignUp?: (db: TExecutor, request: TPreSignUpRequest) => Promise<TPreSignUpResponse>;
  /**
   * Called with the user's sub after a failed password or MFA code, a lock-out, an MFA or device
   * change and a global sign-out, in the transaction of that change where there is one.
   */
  onEvent?: (
    tx: TExecutor,
    event: TIdpEvent & { sub: string; ip: string; userAgent: string | null },
  ) => Promise<void>;
  /**
   * Asked by DeleteUser in its transaction, before the user goes: the app does what it does when a
   * person leaves, or answers why they may not (the answer is refused as NotAuthorizedException).
   */
  beforeDeleteUser?: (
    tx: TExecutor,
    request: { sub: string; ip: string; userAgent: string | null },
  ) => Promise<{ refused: string } | null>;
  /**
   * Whether this user must have MFA although the pool's MFA is OPTIONAL (the app's per-firm rule);
   * with IDP_MFA=ON everyone must. `sign_in`: set it up now (MFA_SETUP), e.g. once a grace period is
   * over; `turn_off`: may they turn it off (a rule still in its grace already forbids that).
   */
  mfaRequired?: (db: TExecutor, sub: string, when: 'sign_in' | 'turn_off') => Promise<boolean>;
};

/** What a pre sign-up trigger is told: Cognito's `request` of that event. */
export type TPreSignUpRequest = {
  userName: string;
  /** The attributes the user will have, `email` among them. */
  userAttributes: Record<string, string>;
  /** SignUp's ValidationData: never stored, only for this decision. */
  validationData: Record<string, string>;
  clientMetadata: Record<string, string>;
};

export type TPreSignUpResponse = { autoConfirmUser: boolean; autoVerifyEmail: boolean };

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
