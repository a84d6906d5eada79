import { eq } from 'drizzle-orm';
import { idpUsers } from '../../db/schema';
import { isLocked, releaseAttempts, type TSlot, takeSignInAttempt } from '../attempts';
import { createChallenge, restoreChallenge, takeChallenge } from '../challenges';
import type { TIdpContext, TOperation } from '../deps';
import { findDevice, isRemembered, newDevice, requireDevice, touchDevice, trustedSource } from '../devices';
import { E, IdpError, invalidParameter } from '../errors';
import { checkClient, optRecord, optString, reqString } from '../input';
import {
  checkEmailOtp,
  checkTotpCode,
  EMAIL_OTP,
  emailMfaAvailable,
  emit,
  enabledFactors,
  mfaRequired,
  SOFTWARE_TOKEN_MFA,
  sendEmailOtp,
  type TMfaType,
} from '../mfa';
import { checkPasswordPolicy, checkStandInPassword, verifyPassword } from '../passwords';
import { refreshSession, startSession } from '../sessions';
import { parseA, serverEphemeral, standInVerifier, verifyClaim } from '../srp';
import { standInId } from '../stand-in';
import {
  assertUsable,
  attributesOf,
  findUserById,
  findUserByName,
  maskEmail,
  passwordColumns,
  type TIdpUser,
  usernameKey,
  writableAttributes,
} from '../users';

const need = (map: Record<string, string>, name: string): string => {
  const value = map[name];
  if (!value) throw invalidParameter(`Missing required parameter ${name}`);
  return value;
};

/** How long an address one of the person's devices signed in from keeps its own counter. */
const TRUSTED_DAYS = 30;

/**
 * The counter a password attempt takes. Someone else's guessing must not keep the person out: an
 * attempt from a device they remembered, or from an address one of their devices signed in from in
 * the last TRUSTED_DAYS days, counts in a bucket of its own (with the same limit, so a stolen
 * laptop still cannot guess on); guesses from anywhere else share the account's bucket and lock
 * only it.
 */
async function lockKey(ctx: TIdpContext, user: TIdpUser, deviceKey: string | undefined): Promise<string> {
  const trusted = await trustedSource(ctx.db, user.id, deviceKey, ctx.ip, TRUSTED_DAYS);
  return trusted ? `pw:${user.id}:${trusted}` : `pw:${user.id}`;
}

async function checkNotLocked(ctx: TIdpContext, user: TIdpUser, deviceKey: string | undefined) {
  if (await isLocked(ctx.db, await lockKey(ctx, user, deviceKey))) throw E.passwordAttempts();
}

type TPasswordSlot = TSlot & { key: string };

/**
 * Every password check first takes a slot (counted and decided in one statement), so however many
 * arrive at once, none is checked while the key is locked.
 */
async function takePasswordSlot(
  ctx: TIdpContext,
  user: TIdpUser,
  deviceKey: string | undefined,
): Promise<TPasswordSlot> {
  const key = await lockKey(ctx, user, deviceKey);
  const slot = await takeSignInAttempt(ctx.db, key);
  if (!slot.allowed) throw E.passwordAttempts();
  return { ...slot, key };
}

async function wrongPassword(ctx: TIdpContext, user: TIdpUser, slot: TSlot): Promise<never> {
  if (slot.last) {
    await emit(ctx, user.id, { kind: 'locked_out', reason: 'password', seconds: slot.retryS });
    throw E.passwordAttempts();
  }
  await emit(ctx, user.id, { kind: 'sign_in_failed', reason: 'password' });
  throw E.wrongPassword();
}

// A user name nobody has is answered as a real user with a wrong password would be (Cognito's
// PreventUserExistenceErrors): the same challenge, the same work, the same lock, the same error.

const standInKey = async (ctx: TIdpContext, name: string) => `pw:?${await standInId(ctx, name)}`;

async function standInSlot(ctx: TIdpContext, name: string): Promise<TSlot> {
  const slot = await takeSignInAttempt(ctx.db, await standInKey(ctx, name));
  if (!slot.allowed) throw E.passwordAttempts();
  return slot;
}

const standInFailure = (slot: TSlot) => (slot.last ? E.passwordAttempts() : E.wrongPassword());

async function standInPasswordVerifier(ctx: TIdpContext, name: string, A: bigint) {
  if (await isLocked(ctx.db, await standInKey(ctx, name))) throw E.passwordAttempts();
  const { salt, verifier } = standInVerifier(await ctx.secrets.mac(`idp.srp-salt\u0000${usernameKey(name)}`));
  const { b, B } = serverEphemeral(verifier);
  const secretBlock = await createChallenge(ctx.db, {
    userId: null,
    kind: 'srp',
    data: { A: A.toString(16), b, B, verifier, name },
  });
  return {
    ChallengeName: 'PASSWORD_VERIFIER',
    ChallengeParameters: {
      SALT: salt,
      SRP_B: B,
      SECRET_BLOCK: secretBlock,
      USER_ID_FOR_SRP: name,
      USERNAME: name,
    },
  };
}

/** After a right password: the user's state decides between an error, a challenge and tokens. */
async function afterPassword(
  ctx: TIdpContext,
  user: TIdpUser,
  deviceKey: string | undefined,
  slot: TPasswordSlot,
) {
  await releaseAttempts(ctx.db, slot.key, slot);
  if (user.status === 'UNCONFIRMED') throw E.userNotConfirmed();
  if (user.status === 'RESET_REQUIRED') throw E.resetRequired();
  if (user.status === 'FORCE_CHANGE_PASSWORD') {
    const Session = await createChallenge(ctx.db, {
      userId: user.id,
      kind: 'new_password',
      data: { deviceKey: deviceKey ?? '' },
    });
    const userAttributes = Object.fromEntries(
      attributesOf(user)
        .filter((a) => a.Name !== 'sub')
        .map((a) => [a.Name, a.Value]),
    );
    return {
      ChallengeName: 'NEW_PASSWORD_REQUIRED',
      Session,
      ChallengeParameters: {
        USER_ID_FOR_SRP: user.username,
        requiredAttributes: '[]',
        userAttributes: JSON.stringify(userAttributes),
      },
    };
  }
  return secondFactor(ctx, user, deviceKey);
}

/** The challenge of one MFA type: SOFTWARE_TOKEN_MFA, or EMAIL_OTP with its code mailed now. */
async function mfaChallenge(ctx: TIdpContext, user: TIdpUser, type: TMfaType, data: Record<string, string>) {
  if (type === EMAIL_OTP) {
    await sendEmailOtp(ctx, user);
    const Session = await createChallenge(ctx.db, { userId: user.id, kind: 'email_otp', data });
    return {
      ChallengeName: EMAIL_OTP,
      Session,
      ChallengeParameters: {
        CODE_DELIVERY_DELIVERY_MEDIUM: 'EMAIL',
        CODE_DELIVERY_DESTINATION: maskEmail(user.email ?? ''),
        USER_ID_FOR_SRP: user.username,
      },
    };
  }
  const Session = await createChallenge(ctx.db, { userId: user.id, kind: 'software_token_mfa', data });
  return {
    ChallengeName: SOFTWARE_TOKEN_MFA,
    Session,
    ChallengeParameters: {
      FRIENDLY_DEVICE_NAME: user.totpDeviceName || 'TOTP device',
      USER_ID_FOR_SRP: user.username,
    },
  };
}

/**
 * After the password: a remembered device stands in for MFA (it still proves itself by device
 * SRP); otherwise a person with one MFA type on (or a preferred one) answers its challenge, with
 * both and neither preferred chooses first (SELECT_MFA_TYPE), and one who must have MFA but has
 * none sets it up (MFA_SETUP, offering each type the pool has).
 */
async function secondFactor(ctx: TIdpContext, user: TIdpUser, deviceKey: string | undefined) {
  if (deviceKey && (await isRemembered(ctx.db, user.id, deviceKey))) return deviceStep(ctx, user, deviceKey);
  const data = { deviceKey: deviceKey ?? '' };
  const factors = enabledFactors(user);
  const preferred = factors.find((f) => f === user.mfaPreferred);
  if (preferred || factors.length === 1)
    return mfaChallenge(ctx, user, preferred ?? factors[0] ?? SOFTWARE_TOKEN_MFA, data);
  if (factors.length > 1) {
    const Session = await createChallenge(ctx.db, { userId: user.id, kind: 'select_mfa_type', data });
    return {
      ChallengeName: 'SELECT_MFA_TYPE',
      Session,
      ChallengeParameters: { MFAS_CAN_CHOOSE: JSON.stringify(factors), USER_ID_FOR_SRP: user.username },
    };
  }
  if (
    ctx.config.idp.mode === 'embedded' &&
    ctx.config.idp.mfa !== 'OFF' &&
    (await mfaRequired(ctx, user, 'sign_in'))
  ) {
    const Session = await createChallenge(ctx.db, { userId: user.id, kind: 'mfa_setup', data });
    return {
      ChallengeName: 'MFA_SETUP',
      Session,
      // A JSON list in a string, as Cognito sends it.
      ChallengeParameters: {
        MFAS_CAN_SETUP: JSON.stringify(
          emailMfaAvailable(ctx) ? [SOFTWARE_TOKEN_MFA, EMAIL_OTP] : [SOFTWARE_TOKEN_MFA],
        ),
        USER_ID_FOR_SRP: user.username,
      },
    };
  }
  return deviceStep(ctx, user, deviceKey);
}

/**
 * After an MFA set-up: tokens, never DEVICE_SRP_AUTH (Amplify's set-up path cannot answer one;
 * Cognito sends none), the person having just proved the password and the new factor. A device
 * the sign-in named keeps its key; otherwise a new one, as after any sign-in.
 */
async function setupSession(ctx: TIdpContext, user: TIdpUser, deviceKey: string | undefined) {
  const known = deviceKey ? await findDevice(ctx.db, user.id, deviceKey) : null;
  return known
    ? startSession(ctx, user, { deviceKey: known.deviceKey })
    : startSession(ctx, user, { newDevice: await newDevice(ctx.db, user.id, ctx.region, ctx.ip) });
}

/** Fully authenticated: a known device must prove itself; otherwise tokens and a new device. */
async function deviceStep(ctx: TIdpContext, user: TIdpUser, deviceKey: string | undefined) {
  if (deviceKey) {
    const device = await findDevice(ctx.db, user.id, deviceKey);
    if (!device) throw E.deviceNotFound();
    const Session = await createChallenge(ctx.db, {
      userId: user.id,
      kind: 'device_challenge',
      data: { deviceKey },
    });
    return { ChallengeName: 'DEVICE_SRP_AUTH', Session, ChallengeParameters: { USERNAME: user.username } };
  }
  return startSession(ctx, user, { newDevice: await newDevice(ctx.db, user.id, ctx.region, ctx.ip) });
}

/** USER_PASSWORD_AUTH's check, with its lock and its answer to an unknown name. */
async function checkUserPassword(ctx: TIdpContext, name: string, password: string, deviceKey?: string) {
  const user = await findUserByName(ctx.db, name);
  if (!user) {
    const slot = await standInSlot(ctx, name);
    await checkStandInPassword(password.slice(0, 256));
    throw standInFailure(slot);
  }
  assertUsable(user);
  const slot = await takePasswordSlot(ctx, user, deviceKey);
  if (password.length > 256 || !(await verifyPassword(password, user.passwordHash)))
    return wrongPassword(ctx, user, slot);
  return { user, slot };
}

/**
 * The hosted sign-in page's password check: the same lock, errors and events as
 * USER_PASSWORD_AUTH; answers the user, whose status the page then reads (it issues nothing here).
 */
export async function hostedPasswordCheck(
  ctx: TIdpContext,
  name: string,
  password: string,
): Promise<TIdpUser> {
  const { user, slot } = await checkUserPassword(ctx, name, password);
  await releaseAttempts(ctx.db, slot.key, slot);
  if (user.status === 'UNCONFIRMED') throw E.userNotConfirmed();
  if (user.status === 'RESET_REQUIRED' || user.status === 'FORCE_CHANGE_PASSWORD') throw E.resetRequired();
  return user;
}

export const InitiateAuth: TOperation = async (ctx, body) => {
  checkClient(ctx, body);
  const flow = reqString(body, 'AuthFlow', 64);
  const params = optRecord(body, 'AuthParameters');
  if (flow === 'REFRESH_TOKEN_AUTH' || flow === 'REFRESH_TOKEN') {
    return refreshSession(ctx, need(params, 'REFRESH_TOKEN'), (id) => findUserById(ctx.db, id));
  }
  if (flow === 'USER_SRP_AUTH') {
    const A = parseA(need(params, 'SRP_A'));
    if (A === null) throw invalidParameter('SRP_A is invalid.');
    const name = need(params, 'USERNAME');
    const user = await findUserByName(ctx.db, name);
    if (!user) return standInPasswordVerifier(ctx, name, A);
    assertUsable(user);
    await checkNotLocked(ctx, user, params.DEVICE_KEY);
    const { b, B } = serverEphemeral(user.srpVerifier);
    const secretBlock = await createChallenge(ctx.db, {
      userId: user.id,
      kind: 'srp',
      data: { A: A.toString(16), b, B },
    });
    return {
      ChallengeName: 'PASSWORD_VERIFIER',
      ChallengeParameters: {
        SALT: user.srpSalt,
        SRP_B: B,
        SECRET_BLOCK: secretBlock,
        USER_ID_FOR_SRP: user.username,
        USERNAME: user.username,
      },
    };
  }
  if (flow === 'USER_PASSWORD_AUTH') {
    const { user, slot } = await checkUserPassword(
      ctx,
      need(params, 'USERNAME'),
      need(params, 'PASSWORD'),
      params.DEVICE_KEY,
    );
    return afterPassword(ctx, user, params.DEVICE_KEY, slot);
  }
  throw invalidParameter('Initiate Auth method not supported.');
};

export const GetTokensFromRefreshToken: TOperation = async (ctx, body) => {
  checkClient(ctx, body);
  const token = reqString(body, 'RefreshToken', 2048);
  optString(body, 'DeviceKey', 55);
  return refreshSession(ctx, token, (id) => findUserById(ctx.db, id));
};

/** A step of this kind for a user that still exists and may sign in. */
async function stepUser(
  ctx: TIdpContext,
  session: string | undefined,
  kind: Parameters<typeof takeChallenge>[2],
) {
  const step = await takeChallenge(ctx.db, session, kind);
  if (!step?.userId) throw E.sessionExpired();
  const user = await findUserById(ctx.db, step.userId);
  assertUsable(user);
  return { step, user };
}

export const RespondToAuthChallenge: TOperation = async (ctx, body) => {
  checkClient(ctx, body);
  const name = reqString(body, 'ChallengeName', 64);
  const r = optRecord(body, 'ChallengeResponses');
  const session = optString(body, 'Session', 4096);
  switch (name) {
    case 'PASSWORD_VERIFIER': {
      const secretBlock = need(r, 'PASSWORD_CLAIM_SECRET_BLOCK');
      const timestamp = need(r, 'TIMESTAMP');
      const signature = need(r, 'PASSWORD_CLAIM_SIGNATURE');
      const step = await takeChallenge(ctx.db, secretBlock, 'srp');
      if (!step) throw E.sessionExpired();
      const claim = {
        A: step.data.A ?? '',
        B: step.data.B ?? '',
        b: step.data.b ?? '',
        poolName: ctx.poolName,
        secretBlock,
        timestamp,
        signature,
      };
      if (!step.userId) {
        const standIn = step.data.name ?? '';
        const slot = await standInSlot(ctx, standIn);
        verifyClaim({ ...claim, verifier: step.data.verifier ?? '', userId: standIn });
        throw standInFailure(slot);
      }
      const user = await findUserById(ctx.db, step.userId);
      assertUsable(user);
      const slot = await takePasswordSlot(ctx, user, r.DEVICE_KEY);
      if (!verifyClaim({ ...claim, verifier: user.srpVerifier, userId: user.username }))
        return wrongPassword(ctx, user, slot);
      if (r.DEVICE_KEY && !(await findDevice(ctx.db, user.id, r.DEVICE_KEY))) {
        await restoreChallenge(ctx.db, secretBlock, 'srp', step);
        throw E.deviceNotFound();
      }
      return afterPassword(ctx, user, r.DEVICE_KEY, slot);
    }
    case 'SOFTWARE_TOKEN_MFA': {
      const code = need(r, 'SOFTWARE_TOKEN_MFA_CODE');
      const { step, user } = await stepUser(ctx, session, 'software_token_mfa');
      try {
        await checkTotpCode(ctx, user, code);
      } catch (error) {
        // A mistyped code may be typed again in the same sign-in, until the lock says otherwise.
        if (error instanceof IdpError && error.type === 'CodeMismatchException' && session)
          await restoreChallenge(ctx.db, session, 'software_token_mfa', step);
        throw error;
      }
      return deviceStep(ctx, user, step.data.deviceKey || undefined);
    }
    case 'SELECT_MFA_TYPE': {
      const answer = need(r, 'ANSWER');
      const { step, user } = await stepUser(ctx, session, 'select_mfa_type');
      const factors = enabledFactors(user);
      const chosen = factors.find((f) => f === answer);
      if (!chosen) {
        if (session) await restoreChallenge(ctx.db, session, 'select_mfa_type', step);
        throw invalidParameter(
          `Invalid MFA type: ${answer.slice(0, 40)}. Choose one of ${factors.join(', ')}.`,
        );
      }
      return mfaChallenge(ctx, user, chosen, step.data);
    }
    case 'EMAIL_OTP': {
      const code = need(r, 'EMAIL_OTP_CODE');
      const { step, user } = await stepUser(ctx, session, 'email_otp');
      try {
        await checkEmailOtp(ctx, user, code.trim());
      } catch (error) {
        if (error instanceof IdpError && error.type === 'CodeMismatchException' && session)
          await restoreChallenge(ctx.db, session, 'email_otp', step);
        throw error;
      }
      if (step.data.setup === '1') {
        // MFA_SETUP by email: the mailed code proved the address; email MFA is on and preferred.
        await ctx.db.transaction(async (tx) => {
          await tx
            .update(idpUsers)
            .set({ emailMfaEnabled: true, mfaPreferred: EMAIL_OTP })
            .where(eq(idpUsers.id, user.id));
          await emit({ ...ctx, db: tx }, user.id, { kind: 'email_mfa_changed', change: 'enabled' });
        });
        return setupSession(ctx, user, step.data.deviceKey);
      }
      return deviceStep(ctx, user, step.data.deviceKey || undefined);
    }
    case 'MFA_SETUP': {
      if (r.EMAIL !== undefined) {
        // Email MFA chosen at set-up: the address must be the user's own verified email (it is
        // their sign-in name here, never changed by this step); a code goes there, EMAIL_OTP next.
        const { step, user } = await stepUser(ctx, session, 'mfa_setup');
        if (!emailMfaAvailable(ctx)) throw invalidParameter('Email MFA is not enabled for this user pool.');
        const email = r.EMAIL.trim().toLowerCase();
        if (!user.email || !user.emailVerified || email !== user.email.toLowerCase()) {
          if (session) await restoreChallenge(ctx.db, session, 'mfa_setup', step);
          throw invalidParameter('Enter the verified email address of this account.');
        }
        return mfaChallenge(ctx, user, EMAIL_OTP, { ...step.data, setup: '1' });
      }
      // VerifySoftwareToken handed out this session once the new authenticator's code was right.
      const { step, user } = await stepUser(ctx, session, 'mfa_setup_done');
      return setupSession(ctx, user, step.data.deviceKey);
    }
    case 'NEW_PASSWORD_REQUIRED': {
      const password = need(r, 'NEW_PASSWORD');
      checkPasswordPolicy(password);
      const attributes = writableAttributes(
        Object.entries(r)
          .filter(([k]) => k.startsWith('userAttributes.'))
          .map(([k, v]) => ({ Name: k.slice('userAttributes.'.length), Value: v })),
      );
      const { step, user } = await stepUser(ctx, session, 'new_password');
      const { email, ...rest } = attributes;
      await ctx.db
        .update(idpUsers)
        .set({
          ...(await passwordColumns(ctx.poolName, user.username, password)),
          status: 'CONFIRMED',
          attributes: { ...user.attributes, ...rest },
          ...(email && email.toLowerCase() !== user.email
            ? { email: email.toLowerCase(), emailVerified: false }
            : {}),
        })
        .where(eq(idpUsers.id, user.id));
      const updated = await findUserById(ctx.db, user.id);
      assertUsable(updated);
      return secondFactor(ctx, updated, step.data.deviceKey || r.DEVICE_KEY);
    }
    case 'DEVICE_SRP_AUTH': {
      const A = parseA(need(r, 'SRP_A'));
      const deviceKey = need(r, 'DEVICE_KEY');
      if (A === null) throw invalidParameter('SRP_A is invalid.');
      const { step, user } = await stepUser(ctx, session, 'device_challenge');
      if (step.data.deviceKey !== deviceKey) throw E.sessionExpired();
      const device = await requireDevice(ctx.db, user.id, deviceKey);
      const { b, B } = serverEphemeral(device.verifier ?? '');
      const secretBlock = await createChallenge(ctx.db, {
        userId: user.id,
        kind: 'device_srp',
        data: { A: A.toString(16), b, B, deviceKey },
      });
      return {
        ChallengeName: 'DEVICE_PASSWORD_VERIFIER',
        Session: secretBlock,
        ChallengeParameters: {
          SALT: device.salt ?? '',
          SRP_B: B,
          SECRET_BLOCK: secretBlock,
          USERNAME: user.username,
        },
      };
    }
    case 'DEVICE_PASSWORD_VERIFIER': {
      const secretBlock = need(r, 'PASSWORD_CLAIM_SECRET_BLOCK');
      const timestamp = need(r, 'TIMESTAMP');
      const signature = need(r, 'PASSWORD_CLAIM_SIGNATURE');
      const { step, user } = await stepUser(ctx, secretBlock, 'device_srp');
      const device = await requireDevice(ctx.db, user.id, step.data.deviceKey ?? '');
      const ok = verifyClaim({
        A: step.data.A ?? '',
        B: step.data.B ?? '',
        b: step.data.b ?? '',
        verifier: device.verifier ?? '',
        poolName: device.groupKey,
        userId: device.deviceKey,
        secretBlock,
        timestamp,
        signature,
      });
      if (!ok) throw E.wrongPassword();
      await touchDevice(ctx.db, device.deviceKey, ctx.ip);
      return startSession(ctx, user, { deviceKey: device.deviceKey });
    }
    default:
      throw invalidParameter(`Challenge ${name} is not supported.`);
  }
};
