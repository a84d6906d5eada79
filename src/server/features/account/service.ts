import { TRPCError } from '@trpc/server';
import { and, eq } from 'drizzle-orm';
import type { TUpdateProfile } from '../../../domain/account';
import { actorOf, type TRequestMeta } from '../../auth';
import type { TDb, TExecutor } from '../../db/client';
import { members } from '../../db/schema';
import { audit, diff } from '../system-log';

type TScope = { orgId: string; memberId: string };

const columns = {
  firstName: members.firstName,
  lastName: members.lastName,
  phone: members.phone,
  picture: members.picture,
  email: members.email,
};

async function readAccount(db: TExecutor, scope: TScope) {
  const [row] = await db
    .select(columns)
    .from(members)
    .where(and(eq(members.orgId, scope.orgId), eq(members.id, scope.memberId)))
    .limit(1);
  if (!row) throw new TRPCError({ code: 'NOT_FOUND', message: 'Member not found' });
  return row;
}

/** The caller's own profile, for the "My profile" dialog (profile.me carries no phone). */
export const getAccount = readAccount;

export async function updateProfile(db: TDb, scope: TScope, input: TUpdateProfile, meta: TRequestMeta) {
  return db.transaction(async (tx) => {
    const before = await readAccount(tx, scope);
    const changes = diff(before, input);
    if (changes) {
      await tx
        .update(members)
        .set(input)
        .where(and(eq(members.orgId, scope.orgId), eq(members.id, scope.memberId)));
      await audit(tx, actorOf(scope, meta), {
        action: 'member.profile.update',
        recordType: 'member',
        recordId: scope.memberId,
        summary: `Updated their profile (${Object.keys(changes).join(', ')})`,
        changes,
      });
    }
    return { changed: Boolean(changes), account: await readAccount(tx, scope) };
  });
}
