import type { TDemoClient } from './clients';
import { pdfFile } from './documents';
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

/**
 * The portal in use, late in the replay: each person signs in with a mailed code and, for each of
 * their clients, sends what the firm asked for on the next open to-do (a file attached to it, a
 * note) and marks it done; the firm is told as the portal tells it.
 */
export async function portalRound(session: TSession, plan: ReturnType<typeof portalPlan>) {
  for (const person of plan) {
    const portal = await session.portalSignIn(person.email);
    for (const client of person.for) {
      const open = await portal.query<{ rows: { id: string; title: string }[] }>('clientPortalTasks.list', {
        clientId: client.id,
        view: 'open',
        page: 1,
        pageSize: 5,
      });
      const todo = open.rows[0];
      if (!todo) continue;
      await portal.upload(
        { clientId: client.id, taskId: todo.id },
        pdfFile(`${todo.title} - ${client.name}.pdf`, `${todo.title}: ${client.name}`),
      );
      await portal.mutate('clientPortalTasks.comment', {
        clientId: client.id,
        taskId: todo.id,
        body: 'Uploaded here. Please tell me if anything else is needed.',
      });
      await portal.mutate('clientPortalTasks.complete', { clientId: client.id, taskId: todo.id });
    }
  }
}
