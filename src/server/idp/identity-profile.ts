import { TRPCError } from '@trpc/server';
import { eq } from 'drizzle-orm';
import type { TConfig } from '../config';
import type { TExecutor } from '../db/client';
import { idpUsers } from '../db/schema';
import type { TStaffIdentity } from './staff-auth';

/** The signed-in identity's email and names, as the provider knows them. */
export async function identityProfile(db: TExecutor, config: TConfig, identity: TStaffIdentity) {
  if (config.idp.mode === 'embedded') {
    const [user] = await db
      .select({ email: idpUsers.email, verified: idpUsers.emailVerified, attributes: idpUsers.attributes })
      .from(idpUsers)
      .where(eq(idpUsers.id, identity.sub))
      .limit(1);
    return {
      email: user?.email?.toLowerCase() ?? null,
      verified: user?.verified === true,
      firstName: user?.attributes.given_name ?? '',
      lastName: user?.attributes.family_name ?? '',
    };
  }
  const res = await fetch(config.idp.endpoint, {
    method: 'POST',
    headers: {
      'content-type': 'application/x-amz-json-1.1',
      'x-amz-target': 'AWSCognitoIdentityProviderService.GetUser',
    },
    body: JSON.stringify({ AccessToken: identity.accessToken }),
  });
  if (!res.ok) throw new TRPCError({ code: 'UNAUTHORIZED', message: 'Please sign in to continue' });
  const user = (await res.json()) as { UserAttributes?: { Name: string; Value: string }[] };
  const attribute = (name: string) => user.UserAttributes?.find((a) => a.Name === name)?.Value;
  return {
    email: attribute('email')?.toLowerCase() ?? null,
    verified: attribute('email_verified') === 'true',
    firstName: attribute('given_name') ?? '',
    lastName: attribute('family_name') ?? '',
  };
}
