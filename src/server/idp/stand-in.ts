import { LIMITS, takeAttempt } from './attempts';
import type { TIdpContext } from './deps';
import { E } from './errors';
import { emailDelivery, usernameKey } from './users';

// A user name nobody has is answered as a real user's would be (Cognito's PreventUserExistenceErrors):
// these stand-ins are keyed by a keyed hash of the name, so the same name always gets the same
// answer and nobody can tell it from a real account.

/** A stable, unguessable id for a user name nobody has. */
export async function standInId(ctx: TIdpContext, username: string): Promise<string> {
  return (await ctx.secrets.mac(`idp.unknown-user\u0000${usernameKey(username)}`)).slice(0, 32);
}

/** Where the code "went", masked; the sends are counted like a real user's, so the limit answers alike. */
export async function standInDelivery(ctx: TIdpContext, username: string, purpose: string) {
  const id = await standInId(ctx, username);
  if (!(await takeAttempt(ctx.db, `send:${purpose}:?${id}`, LIMITS.codeSend)).allowed) throw E.attemptLimit();
  const email = username.includes('@') ? username : `${id.slice(0, 1)}@${id.slice(1, 2)}`;
  return { CodeDeliveryDetails: emailDelivery(email.toLowerCase()) };
}
