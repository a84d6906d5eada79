import type { TDemoClient } from './clients';
import type { TPersonSession, TSession } from './session';

export type TDemoPortalUser = { name: string; email: string; clients: string[] };

/**
 * Who the firm asks into its client portal: a director acting for two companies of one business
 * group, and two people with one client each.
 */
export function portalPlan(clients: TDemoClient[], domain: string) {
  const companies = clients.filter((c) => c.groupId && (c.type === 'company' || c.type === 'llp'));
  const groupId = companies.find(
    (c) => companies.filter((o) => o.groupId === c.groupId).length >= 2,
  )?.groupId;
  const grouped = companies.filter((c) => c.groupId === groupId).slice(0, 2);
  const singles = clients.filter((c) => !grouped.includes(c)).slice(0, 2);
  const at = `clients.${domain}`;
  return [
    { name: 'Rohan Kapoor', email: `rohan@${at}`, phone: '+91 98200 11111', for: grouped },
    { name: 'Anita Desai', email: `anita@${at}`, phone: '+91 98200 22222', for: singles.slice(0, 1) },
    { name: 'Vikram Joshi', email: `vikram@${at}`, phone: '', for: singles.slice(1, 2) },
  ].filter((p) => p.for.length > 0);
}

/**
 * The invitations, as the client-users tab sends them, and their acceptance: each person opens the
 * link in the mail (which signs them in). A second client for someone already in is a note, not a
 * new invitation.
 */
export async function invitePortalUsers(
  session: TSession,
  inviter: TPersonSession,
  plan: ReturnType<typeof portalPlan>,
): Promise<TDemoPortalUser[]> {
  for (const person of plan) {
    for (const client of person.for) {
      await inviter.api.clientUsers.invite({
        clientId: client.id,
        email: person.email,
        name: person.name,
        phone: person.phone,
      });
      const mail = await session.deliverMail();
      const link = mail.find((m) => m.to === person.email && m.notes?.link?.includes('/auth/invite/'))?.notes
        ?.link;
      if (link) await session.acceptPortalInvite(link);
    }
  }
  return plan.map((p) => ({ name: p.name, email: p.email, clients: p.for.map((c) => c.name) }));
}
