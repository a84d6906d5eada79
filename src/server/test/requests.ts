import { requestItems, requestRecipients, requests, requestTemplates } from '../db/schema';
import type { TTestApp } from './app';

// Client requests (issue 36) as the matrices need them, written straight to the tables: one per
// state a procedure acts on, each with a file item and a typed item.

async function seedRequest(
  t: TTestApp,
  at: { orgId: string; clientId: string; recipientIds: string[] },
  title: string,
  status: 'draft' | 'sent' | 'submitted',
) {
  const [request] = await t.db
    .insert(requests)
    .values({ orgId: at.orgId, clientId: at.clientId, title, status, dueDate: '2099-03-31' })
    .returning();
  if (!request) throw new Error('request not seeded');
  const answered = status === 'submitted';
  const [fileItem, textItem] = await t.db
    .insert(requestItems)
    .values([
      {
        orgId: at.orgId,
        requestId: request.id,
        position: 0,
        key: 'files',
        kind: 'file',
        label: 'Bank statements',
        required: false,
      },
      {
        orgId: at.orgId,
        requestId: request.id,
        position: 1,
        key: 'pan',
        kind: 'short_text',
        label: 'PAN',
        required: false,
        value: answered ? 'ABCDE1234F' : null,
        answeredAt: answered ? new Date() : null,
      },
    ])
    .returning();
  if (!fileItem || !textItem) throw new Error('request items not seeded');
  if (at.recipientIds.length) {
    await t.db
      .insert(requestRecipients)
      .values(
        at.recipientIds.map((clientUserId) => ({ orgId: at.orgId, requestId: request.id, clientUserId })),
      );
  }
  return { ...request, fileItem, textItem };
}

/** A client's requests: open (sent), submitted (answered), a draft, one to complete, one to cancel. */
export async function seedClientRequests(
  t: TTestApp,
  at: { orgId: string; clientId: string; recipientIds: string[]; marker: string },
) {
  return {
    open: await seedRequest(t, at, `${at.marker} open request`, 'sent'),
    submitted: await seedRequest(t, at, `${at.marker} submitted request`, 'submitted'),
    draft: await seedRequest(t, at, `${at.marker} draft request`, 'draft'),
    toComplete: await seedRequest(t, at, `${at.marker} request to complete`, 'submitted'),
    toCancel: await seedRequest(t, at, `${at.marker} request to cancel`, 'sent'),
  };
}

/** A firm's request template, and one to delete. */
export async function seedRequestTemplates(t: TTestApp, orgId: string, marker: string) {
  const sections = [
    {
      title: '',
      items: [
        {
          key: 'pan',
          kind: 'short_text' as const,
          label: 'PAN',
          hint: '',
          required: true,
          options: [],
          condition: null,
        },
      ],
    },
  ];
  const [template, doomed] = await t.db
    .insert(requestTemplates)
    .values([
      { orgId, name: `${marker} request template`, sections },
      { orgId, name: `${marker} doomed request template`, sections },
    ])
    .returning();
  if (!template || !doomed) throw new Error('request templates not seeded');
  return { template, doomed };
}
