import { eq } from 'drizzle-orm';
import { idpUsers } from '../../db/schema';
import { authenticate } from '../access';
import { deleteIdentity } from '../account-deletion';
import { clearSignInLocks, releaseAttempts, takeSignInAttempt } from '../attempts';
import { consumeCode, issueCode } from '../codes';
import type { TOperation } from '../deps';
import { E, IdpError, invalidParameter, notAuthorized } from '../errors';
import { attributeList, checkClient, reqString, stringList } from '../input';
import { sendAttributeCode, sendResetCode } from '../mail';
import { mfaSettingsOf } from '../mfa';
import { checkPasswordPolicy, verifyPassword } from '../passwords';
import { revokeRefreshToken, revokeUserSessions } from '../sessions';
import { standInDelivery } from '../stand-in';
import {
  attributesOf,
  checkUsername,
  emailDelivery,
  emailTaken,
  findUserByName,
  setPassword,
  writableAttributes,
} from '../users';
import { confirmEmail } from './signup';

const accessToken = (body: Record<string, unknown>) => reqString(body, 'AccessToken', 8192);

export const GetUser: TOperation = async (ctx, body) => {
  const { user } = await authenticate(ctx, accessToken(body));
  return { Username: user.username, UserAttributes: attributesOf(user), ...mfaSettingsOf(user) };
};

export const UpdateUserAttributes: TOperation = async (ctx, body) => {
  const token = accessToken(body);
  const changes = writableAttributes(attributeList(body, 'UserAttributes', true));
  const { user } = await authenticate(ctx, token);
  const { email, ...rest } = changes;
  const newEmail = email?.toLowerCase();
  const emailChanged = newEmail !== undefined && newEmail !== user.email;
  await ctx.db
    .update(idpUsers)
    .set({
      attributes: { ...user.attributes, ...rest },
      ...(emailChanged ? { email: newEmail, emailVerified: false } : {}),
    })
    .where(eq(idpUsers.id, user.id));
  if (!emailChanged) return {};
  const code = await issueCode(ctx.db, user.id, 'attr:email');
  await sendAttributeCode(ctx, newEmail, code);
  return { CodeDeliveryDetailsList: [emailDelivery(newEmail)] };
};

export const DeleteUserAttributes: TOperation = async (ctx, body) => {
  const token = accessToken(body);
  const names = stringList(body, 'UserAttributeNames');
  const { user } = await authenticate(ctx, token);
  if (names.includes('email')) throw invalidParameter('Cannot delete the required attribute email.');
  const attributes = { ...user.attributes };
  for (const name of names) {
    if (name === 'sub' || name.endsWith('_verified')) continue;
    delete attributes[name];
  }
  await ctx.db.update(idpUsers).set({ attributes }).where(eq(idpUsers.id, user.id));
  return {};
};

export const GetUserAttributeVerificationCode: TOperation = async (ctx, body) => {
  const token = accessToken(body);
  const name = reqString(body, 'AttributeName', 32);
  const { user } = await authenticate(ctx, token);
  if (name !== 'email')
    throw invalidParameter(`Attribute ${name} cannot be verified: only email is delivered.`);
  if (!user.email) throw invalidParameter('The user has no email address.');
  const code = await issueCode(ctx.db, user.id, 'attr:email');
  await sendAttributeCode(ctx, user.email, code);
  return { CodeDeliveryDetails: emailDelivery(user.email) };
};

export const VerifyUserAttribute: TOperation = async (ctx, body) => {
  const token = accessToken(body);
  const name = reqString(body, 'AttributeName', 32);
  const code = reqString(body, 'Code', 2048);
  const { user } = await authenticate(ctx, token);
  if (name !== 'email')
    throw invalidParameter(`Attribute ${name} cannot be verified: only email is delivered.`);
  if (user.email && (await emailTaken(ctx.db, user.email, user.id))) throw E.aliasExists();
  await consumeCode(ctx.db, user.id, 'attr:email', code);
  await confirmEmail(ctx, user.id, user.email, false);
  return {};
};

export const ChangePassword: TOperation = async (ctx, body) => {
  const token = accessToken(body);
  const previous = reqString(body, 'PreviousPassword', 256);
  const proposed = reqString(body, 'ProposedPassword', 256);
  const { user } = await authenticate(ctx, token);
  const key = `pw:${user.id}`;
  // The slot is taken before the check, in one statement: see takeSignInAttempt.
  const slot = await takeSignInAttempt(ctx.db, key);
  if (!slot.allowed) throw E.passwordAttempts();
  if (!(await verifyPassword(previous, user.passwordHash))) {
    throw slot.last ? E.passwordAttempts() : E.wrongPassword();
  }
  await releaseAttempts(ctx.db, key, slot);
  checkPasswordPolicy(proposed);
  await setPassword(ctx.db, ctx.poolName, user, proposed);
  return {};
};

export const ForgotPassword: TOperation = async (ctx, body) => {
  checkClient(ctx, body);
  const username = reqString(body, 'Username', 128);
  checkUsername(username);
  const user = await findUserByName(ctx.db, username);
  if (!user) return standInDelivery(ctx, username, 'reset');
  if (!user.enabled) throw E.userDisabled();
  if (!user.email) {
    throw invalidParameter(
      'Cannot reset password for the user as there is no registered/verified email or phone_number',
    );
  }
  const code = await issueCode(ctx.db, user.id, 'reset');
  await sendResetCode(ctx, user.email, user.username, code);
  return { CodeDeliveryDetails: emailDelivery(user.email) };
};

export const ConfirmForgotPassword: TOperation = async (ctx, body) => {
  checkClient(ctx, body);
  const username = reqString(body, 'Username', 128);
  const code = reqString(body, 'ConfirmationCode', 2048);
  const password = reqString(body, 'Password', 256);
  checkUsername(username);
  const user = await findUserByName(ctx.db, username);
  checkPasswordPolicy(password);
  // Nobody by that name: the answer to a wrong code (no account is revealed).
  if (!user) throw E.codeMismatch();
  if (!user.enabled) throw E.userDisabled();
  await consumeCode(ctx.db, user.id, 'reset', code);
  // The code came by mail: the address is proven, and the account is usable again.
  await setPassword(ctx.db, ctx.poolName, user, password, 'CONFIRMED');
  await ctx.db.update(idpUsers).set({ emailVerified: true }).where(eq(idpUsers.id, user.id));
  // A new password ends every lock of the person (Cognito: a reset clears it).
  await clearSignInLocks(ctx.db, user.id);
  // A reset usually means the old password is not trusted: end every sign-in.
  await revokeUserSessions(ctx.db, user.id);
  return {};
};

export const GlobalSignOut: TOperation = async (ctx, body) => {
  const { user } = await authenticate(ctx, accessToken(body));
  await ctx.db.transaction(async (tx) => {
    await revokeUserSessions(tx, user.id);
    await ctx.onEvent?.(tx, {
      kind: 'signed_out_everywhere',
      sub: user.id,
      ip: ctx.ip,
      userAgent: ctx.userAgent,
    });
  });
  return {};
};

export const RevokeToken: TOperation = async (ctx, body) => {
  checkClient(ctx, body);
  const token = reqString(body, 'Token', 2048);
  // Only refresh tokens are revoked; an access or id token (a JWT) is refused for its type.
  if (token.split('.').length === 3)
    throw new IdpError('UnsupportedTokenTypeException', 'Unsupported token type');
  // A token this pool never issued is refused; an already revoked one answers 200 (idempotent).
  if (!(await revokeRefreshToken(ctx.db, token)))
    throw new IdpError('UnauthorizedException', 'Invalid refresh token');
  return {};
};

export const DeleteUser: TOperation = async (ctx, body) => {
  const { user } = await authenticate(ctx, accessToken(body));
  await ctx.db.transaction(async (tx) => {
    // The app may refuse (a firm's owner) and does what it does when a person leaves, in this
    // transaction, so a person is never gone from the pool but still a member, or the reverse.
    const answer = await ctx.beforeDeleteUser?.(tx, { sub: user.id, ip: ctx.ip, userAgent: ctx.userAgent });
    if (answer) throw notAuthorized(answer.refused);
    await deleteIdentity(tx, user.id);
  });
  return {};
};
