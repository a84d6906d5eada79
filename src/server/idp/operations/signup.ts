import { and, eq, ne } from 'drizzle-orm';
import { idpUsers } from '../../db/schema';
import { consumeCode, issueCode } from '../codes';
import type { TIdpContext, TOperation, TPreSignUpRequest, TPreSignUpResponse } from '../deps';
import { E, IdpError, invalidParameter, notAuthorized } from '../errors';
import { attributeList, checkClient, optRecord, reqString } from '../input';
import { sendSignUpCode } from '../mail';
import { checkPasswordPolicy } from '../passwords';
import { standInDelivery } from '../stand-in';
import {
  checkUsername,
  createUser,
  emailDelivery,
  emailTaken,
  findUserByName,
  writableAttributes,
} from '../users';

const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

const NO_TRIGGER: TPreSignUpResponse = { autoConfirmUser: false, autoVerifyEmail: false };

/** The pool's pre sign-up trigger, when the app set one; without it every sign-up confirms by code. */
function preSignUp(ctx: TIdpContext, request: TPreSignUpRequest): Promise<TPreSignUpResponse> {
  return ctx.preSignUp ? ctx.preSignUp(ctx.db, request) : Promise.resolve(NO_TRIGGER);
}

export const SignUp: TOperation = async (ctx, body) => {
  checkClient(ctx, body);
  const username = reqString(body, 'Username', 128);
  const password = reqString(body, 'Password', 256);
  checkUsername(username);
  const attributes = writableAttributes(attributeList(body, 'UserAttributes'));
  attributes.email ??= EMAIL.test(username) ? username : '';
  if (!attributes.email)
    throw invalidParameter('Attributes did not conform to the schema: email: The attribute is required');
  const validationData = Object.fromEntries(
    attributeList(body, 'ValidationData').map(({ Name, Value }) => [Name, Value]),
  );
  const clientMetadata = optRecord(body, 'ClientMetadata');
  checkPasswordPolicy(password);
  const trigger = await preSignUp(ctx, {
    userName: username,
    userAttributes: { ...attributes },
    validationData,
    clientMetadata,
  });
  // An address another user already signs in with cannot become this one's verified alias.
  if (trigger.autoVerifyEmail && (await emailTaken(ctx.db, attributes.email, ''))) throw E.aliasExists();
  const user = await createUser(ctx.db, {
    poolName: ctx.poolName,
    username,
    password,
    attributes,
    status: trigger.autoConfirmUser ? 'CONFIRMED' : 'UNCONFIRMED',
    emailVerified: trigger.autoVerifyEmail,
  });
  if (trigger.autoConfirmUser) return { UserConfirmed: true, UserSub: user.id };
  try {
    const code = await issueCode(ctx.db, user.id, 'signup');
    await sendSignUpCode(ctx, attributes.email, user.username, code);
  } catch (error) {
    // Nothing stays behind from a sign-up whose code could not be sent.
    await ctx.db.delete(idpUsers).where(eq(idpUsers.id, user.id));
    if (error instanceof IdpError) throw error;
    throw new IdpError('CodeDeliveryFailureException', 'Unable to deliver the verification code.');
  }
  return { UserConfirmed: false, UserSub: user.id, CodeDeliveryDetails: emailDelivery(attributes.email) };
};

export const ConfirmSignUp: TOperation = async (ctx, body) => {
  checkClient(ctx, body);
  const username = reqString(body, 'Username', 128);
  const code = reqString(body, 'ConfirmationCode', 2048);
  const forceAlias = body.ForceAliasCreation === true;
  const user = await findUserByName(ctx.db, username);
  // Nobody by that name: the answer to a wrong code (no account is revealed).
  if (!user) throw E.codeMismatch();
  if (user.status !== 'UNCONFIRMED')
    throw notAuthorized(`User cannot be confirmed. Current status is ${user.status}`);
  // An alias clash is reported before the code is spent, so the same code works after a forced retry.
  if (!forceAlias && user.email && (await emailTaken(ctx.db, user.email, user.id))) throw E.aliasExists();
  await consumeCode(ctx.db, user.id, 'signup', code);
  await confirmEmail(ctx, user.id, user.email, forceAlias);
  await ctx.db.update(idpUsers).set({ status: 'CONFIRMED' }).where(eq(idpUsers.id, user.id));
  return {};
};

/** Marks the user's email verified; another user's verified alias is an error unless forced. */
export async function confirmEmail(ctx: TIdpContext, userId: string, email: string | null, force: boolean) {
  if (!email) return;
  if (await emailTaken(ctx.db, email, userId)) {
    if (!force) throw E.aliasExists();
    await ctx.db
      .update(idpUsers)
      .set({ emailVerified: false })
      .where(and(eq(idpUsers.email, email), ne(idpUsers.id, userId)));
  }
  await ctx.db.update(idpUsers).set({ emailVerified: true }).where(eq(idpUsers.id, userId));
}

export const ResendConfirmationCode: TOperation = async (ctx, body) => {
  checkClient(ctx, body);
  const username = reqString(body, 'Username', 128);
  checkUsername(username);
  const user = await findUserByName(ctx.db, username);
  if (!user) return standInDelivery(ctx, username, 'signup');
  if (user.status !== 'UNCONFIRMED') throw invalidParameter('User is already confirmed.');
  if (!user.email) throw invalidParameter('Cannot deliver the code: the user has no email address.');
  const code = await issueCode(ctx.db, user.id, 'signup');
  await sendSignUpCode(ctx, user.email, user.username, code);
  return { CodeDeliveryDetails: emailDelivery(user.email) };
};
