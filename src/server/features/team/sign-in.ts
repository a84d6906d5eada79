import { and, eq } from 'drizzle-orm';
import { actorOf } from '../../auth';
import type { TExecutor } from '../../db/client';
import { members } from '../../db/schema';
import { audit } from '../system-log';

/**
 * A staff sign-in through the embedded identity provider (its `onSignIn`, in the transaction that
 * starts the session): one `member.sign_in` row per firm the person is an active member of, with
 * the address and user agent. A person with no active membership (still onboarding, disabled)
 * leaves no row: there is no firm to log it in.
 */
export async function logMemberSignIn(
  tx: TExecutor,
  signIn: { sub: string; ip: string; userAgent: string | null },
) {
  const memberships = await tx
    .select({
      orgId: members.orgId,
      memberId: members.id,
      email: members.email,
      firstName: members.firstName,
      lastName: members.lastName,
    })
    .from(members)
    .where(and(eq(members.sub, signIn.sub), eq(members.status, 'active')));
  for (const m of memberships) {
    const name = `${m.firstName} ${m.lastName}`.trim();
    await audit(tx, actorOf(m, { ip: signIn.ip, userAgent: signIn.userAgent }), {
      action: 'member.sign_in',
      recordType: 'member',
      recordId: m.memberId,
      summary: name ? `${name} (${m.email}) signed in` : `${m.email} signed in`,
    });
  }
}
