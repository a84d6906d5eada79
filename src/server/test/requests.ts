import { createHash, randomUUID } from 'node:crypto';
import { Readable } from 'node:stream';
import { requestItemFiles, requestItems, requestRecipients, requests, requestTemplates } from '../db/schema';
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

/** A file the client sent to a file item, held with it (its bytes in storage, not yet filed). */
async function seedHeldFile(t: TTestApp, orgId: string, itemId: string, name: string) {
  const bytes = Buffer.from(`%PDF-1.4 ${name}`);
  const storageKey = `${orgId}/${randomUUID()}`;
  await t.storage.put(storageKey, Readable.from([bytes]), { contentType: 'application/pdf' });
  const [file] = await t.db
    .insert(requestItemFiles)
    .values({
      orgId,
      itemId,
      name,
      size: bytes.length,
      contentType: 'application/pdf',
      checksumSha256: createHash('sha256').update(bytes).digest('hex'),
      storageKey,
    })
    .returning();
  if (!file) throw new Error('held file not seeded');
  return file;
}

/**
 * A client's requests: open (sent), submitted (answered, with a file held on its file item), a
 * draft to send and one to edit, one to complete, one to cancel.
 */
export async function seedClientRequests(
  t: TTestApp,
  at: { orgId: string; clientId: string; recipientIds: string[]; marker: string },
) {
  const open = await seedRequest(t, at, `${at.marker} open request`, 'sent');
  const submitted = await seedRequest(t, at, `${at.marker} submitted request`, 'submitted');
  return {
    open,
    submitted,
    heldFile: await seedHeldFile(t, at.orgId, submitted.fileItem.id, `${at.marker} held.pdf`),
    draft: await seedRequest(t, at, `${at.marker} draft request`, 'draft'),
    draftToEdit: await seedRequest(t, at, `${at.marker} draft to edit`, 'draft'),
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
