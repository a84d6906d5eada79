import { eq } from 'drizzle-orm';
import { idpUsers } from '../../db/schema';
import { isLocked, LIMITS, releaseAttempts, type TSlot, takeAttempt } from '../attempts';
import { createChallenge, restoreChallenge, takeChallenge } from '../challenges';
import type { TIdpContext, TOperation } from '../deps';
import { findDevice, newDevice, requireDevice, touchDevice, trustedSource } from '../devices';
import { E, invalidParameter } from '../errors';
import { checkClient, optRecord, optString, reqString } from '../input';
import { checkPasswordPolicy, verifyPassword } from '../passwords';
import { refreshSession, startSession } from '../sessions';
import { parseA, serverEphemeral, verifyClaim } from '../srp';
import {
  assertUsable,
  attributesOf,
  findUserById,
  findUserByName,
  passwordColumns,
  type TIdpUser,
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
 * arrive at once, at most LIMITS.password.limit of them are ever checked in a window.
 */
async function takePasswordSlot(
  ctx: TIdpContext,
  user: TIdpUser,
  deviceKey: string | undefined,
): Promise<TPasswordSlot> {
  const key = await lockKey(ctx, user, deviceKey);
  const slot = await takeAttempt(ctx.db, key, LIMITS.password);
  if (!slot.allowed) throw E.passwordAttempts();
  return { ...slot, key };
}

function wrongPassword(slot: TSlot): never {
  throw slot.last ? E.passwordAttempts() : E.wrongPassword();
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
  return authenticated(ctx, user, deviceKey);
}

/** Fully authenticated by password: a known device must prove itself; otherwise tokens and a new device. */
async function authenticated(ctx: TIdpContext, user: TIdpUser, deviceKey: string | undefined) {
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
    const user = await findUserByName(ctx.db, need(params, 'USERNAME'));
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
    const password = need(params, 'PASSWORD');
    const user = await findUserByName(ctx.db, need(params, 'USERNAME'));
    assertUsable(user);
    const slot = await takePasswordSlot(ctx, user, params.DEVICE_KEY);
    if (password.length > 256 || !(await verifyPassword(password, user.passwordHash))) wrongPassword(slot);
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
      const user = await findUserById(ctx.db, step.userId);
      assertUsable(user);
      const slot = await takePasswordSlot(ctx, user, r.DEVICE_KEY);
      const ok = verifyClaim({
        A: step.data.A ?? '',
        B: step.data.B ?? '',
        b: step.data.b ?? '',
        verifier: user.srpVerifier,
        poolName: ctx.poolName,
        userId: user.username,
        secretBlock,
        timestamp,
        signature,
      });
      if (!ok) wrongPassword(slot);
      if (r.DEVICE_KEY && !(await findDevice(ctx.db, user.id, r.DEVICE_KEY))) {
        await restoreChallenge(ctx.db, secretBlock, 'srp', step);
        throw E.deviceNotFound();
      }
      return afterPassword(ctx, user, r.DEVICE_KEY, slot);
    }
    case 'NEW_PASSWORD_REQUIRED': {
      const password = need(r, 'NEW_PASSWORD');
      checkPasswordPolicy(password);
      const attributes = writableAttributes(
        Object.entries(r)
          .filter(([k]) => k.startsWith('userAttributes.'))
          .map(([k, v]) => ({ Name: k.slice('userAttributes.'.length), Value: v })),
      );
      const step = await takeChallenge(ctx.db, session, 'new_password');
      if (!step) throw E.sessionExpired();
      const user = await findUserById(ctx.db, step.userId);
      assertUsable(user);
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
      return authenticated(ctx, updated, step.data.deviceKey || r.DEVICE_KEY);
    }
    case 'DEVICE_SRP_AUTH': {
      const A = parseA(need(r, 'SRP_A'));
      const deviceKey = need(r, 'DEVICE_KEY');
      if (A === null) throw invalidParameter('SRP_A is invalid.');
      const step = await takeChallenge(ctx.db, session, 'device_challenge');
      if (!step || step.data.deviceKey !== deviceKey) throw E.sessionExpired();
      const user = await findUserById(ctx.db, step.userId);
      assertUsable(user);
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
      const step = await takeChallenge(ctx.db, secretBlock, 'device_srp');
      if (!step) throw E.sessionExpired();
      const user = await findUserById(ctx.db, step.userId);
      assertUsable(user);
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
