import { createHash } from 'node:crypto';
import { Readable } from 'node:stream';
import { addDays, format, subDays } from 'date-fns';
import { and, asc, eq, isNotNull, sql } from 'drizzle-orm';
import { v7 as uuidv7 } from 'uuid';
import { expiryRemindAt } from '../../src/domain/reminders';
import type { TDb } from '../../src/server/db/client';
import {
  clients,
  documentFolders,
  documents,
  documentVersions,
  projects,
  reminderDeliveries,
  reminderMembers,
  reminders,
  taskAttachments,
  tasks,
} from '../../src/server/db/schema';
import type { TStorage } from '../../src/server/files/storage';
import type { TDemoPerson } from './people';

// Reminders and documents for the demo firm, so /reminders/{type}, a client's Documents tab and the
// firm vault open populated. Small and direct (a few dozen rows, a few dozen files).

const DAY_MS = 86_400_000;

type TDemoClient = { id: string; name: string; email: string | null };

async function someClients(db: TDb, orgId: string, n: number): Promise<TDemoClient[]> {
  return db
    .select({ id: clients.id, name: clients.name, email: clients.email })
    .from(clients)
    .where(and(eq(clients.orgId, orgId), isNotNull(clients.email)))
    .orderBy(asc(clients.code))
    .limit(n);
}

/**
 * A few reminders of each type: scheduled ones ahead, sent ones with their delivery history, one
 * that failed after its retries, one cancelled. Future ones are picked up by the reminders scan
 * when they fall due, like any other.
 */
export async function createDemoReminders(db: TDb, orgId: string, people: TDemoPerson[], now = new Date()) {
  const book = await someClients(db, orgId, 8);
  const staff = people.filter((p) => p.role !== 'Owner');
  const owner = people.find((p) => p.role === 'Owner');
  const projectOf = async (clientId: string) =>
    (
      await db
        .select({ id: projects.id, name: projects.name })
        .from(projects)
        .where(and(eq(projects.orgId, orgId), eq(projects.clientId, clientId)))
        .orderBy(asc(projects.dueDate))
        .limit(1)
    )[0] ?? null;
  const taskOf = async (clientId: string) =>
    (
      await db
        .select({ id: tasks.id, projectId: tasks.projectId })
        .from(tasks)
        .where(and(eq(tasks.orgId, orgId), eq(tasks.clientId, clientId), isNotNull(tasks.projectId)))
        .orderBy(asc(tasks.dueDate))
        .limit(1)
    )[0] ?? null;
  const at = (days: number, hour = 10) => {
    const d = new Date(now.getTime() + days * DAY_MS);
    d.setUTCHours(hour - 5, 30, 0, 0); // 10:00 in Asia/Kolkata
    return d;
  };
  const member = (i: number) => staff[i % staff.length] as TDemoPerson;

  type TPlan = {
    type: 'client' | 'team' | 'expiry';
    title: string;
    message: string;
    client?: TDemoClient;
    withProject?: boolean;
    withTask?: boolean;
    remindAt: Date;
    recurrence?: 'none' | 'weekly' | 'monthly' | 'quarterly' | 'yearly';
    channels: ('email' | 'in_app')[];
    status: 'scheduled' | 'sent' | 'failed' | 'cancelled';
    members?: TDemoPerson[];
    item?: { name: string; expiryDate: string; daysBefore: number };
    /** Past occurrences delivered, oldest first (days before now). */
    history?: number[];
    error?: string;
  };
  const c = (i: number) => book[i % Math.max(1, book.length)];
  const expiry = (name: string, inDays: number, daysBefore: number) => {
    const expiryDate = format(addDays(now, inDays), 'yyyy-MM-dd');
    return { name, expiryDate, daysBefore };
  };
  const plans: TPlan[] = [
    {
      type: 'client',
      title: 'Documents pending for the March GST return',
      message: 'Please share the sales and purchase registers for March by the 5th so we can file on time.',
      client: c(0),
      withProject: true,
      remindAt: at(3),
      recurrence: 'monthly',
      channels: ['email'],
      status: 'scheduled',
      history: [58, 27],
    },
    {
      type: 'client',
      title: 'Bank statements for the quarter',
      message: 'We still need the bank statements for January to March for all your accounts.',
      client: c(1),
      withTask: true,
      remindAt: at(6),
      recurrence: 'quarterly',
      channels: ['email'],
      status: 'scheduled',
    },
    {
      type: 'client',
      title: 'Sign the engagement letter',
      message: 'The engagement letter for this year is waiting for your signature.',
      client: c(2),
      remindAt: at(-4),
      channels: ['email'],
      status: 'sent',
      history: [4],
    },
    {
      type: 'client',
      title: 'Advance tax instalment due',
      message: 'Your advance tax instalment is due on the 15th. Reply if you want us to compute it.',
      client: c(3),
      remindAt: at(-2),
      channels: ['email'],
      status: 'failed',
      error: 'SMTP 550: mailbox unavailable',
    },
    {
      type: 'client',
      title: 'Investment proofs for the year',
      message: 'Send the investment proofs for deductions (80C, 80D) before the return.',
      client: c(4),
      remindAt: at(10),
      channels: ['email'],
      status: 'cancelled',
    },
    {
      type: 'team',
      title: 'Monthly GST filing review',
      message: 'Review every GSTR-3B prepared this month before the 18th.',
      remindAt: at(5, 9),
      recurrence: 'monthly',
      channels: ['in_app', 'email'],
      status: 'scheduled',
      members: [member(0), member(1)],
      history: [26],
    },
    {
      type: 'team',
      title: 'TDS returns: collect challans',
      message: 'Collect the TDS challans from every client for the quarter.',
      client: c(5),
      withProject: true,
      remindAt: at(-1, 9),
      channels: ['in_app'],
      status: 'sent',
      members: [member(2)],
      history: [1],
    },
    {
      type: 'team',
      title: 'Weekly work-in-progress meeting',
      message: 'Bring your overdue tasks and blockers.',
      remindAt: at(2, 9),
      recurrence: 'weekly',
      channels: ['in_app'],
      status: 'scheduled',
      members: staff.slice(0, 4),
      history: [12, 5],
    },
    {
      type: 'expiry',
      title: 'Digital signature certificate expires',
      message: 'The class 3 DSC expires soon: renew it before the next filing.',
      client: c(0),
      remindAt: new Date(0),
      channels: ['email', 'in_app'],
      status: 'scheduled',
      members: [member(0)],
      item: expiry('Digital signature certificate (Class 3)', 40, 30),
    },
    {
      type: 'expiry',
      title: 'Shop and establishment licence renewal',
      message: 'The shop and establishment licence is due for renewal.',
      client: c(6),
      remindAt: new Date(0),
      channels: ['email'],
      status: 'scheduled',
      members: [member(1)],
      item: expiry('Shop and establishment licence', 75, 45),
    },
    {
      type: 'expiry',
      title: 'Import export code update',
      message: 'The IEC must be updated every year between April and June.',
      client: c(7),
      remindAt: new Date(0),
      channels: ['email', 'in_app'],
      status: 'sent',
      members: [member(2)],
      item: expiry('Import export code (IEC)', 5, 15),
      history: [10],
    },
  ];

  let made = 0;
  for (const plan of plans) {
    if (plan.type !== 'team' && !plan.client) continue;
    const project = plan.withProject && plan.client ? await projectOf(plan.client.id) : null;
    const task = plan.withTask && plan.client ? await taskOf(plan.client.id) : null;
    const remindAt = plan.item
      ? expiryRemindAt(plan.item.expiryDate, plan.item.daysBefore, 'Asia/Kolkata')
      : plan.remindAt;
    const history = plan.history ?? [];
    const anchorAt = history.length ? new Date(now.getTime() - (history[0] as number) * DAY_MS) : remindAt;
    const lastSentAt = history.length
      ? new Date(now.getTime() - (history[history.length - 1] as number) * DAY_MS)
      : null;
    const [row] = await db
      .insert(reminders)
      .values({
        orgId,
        type: plan.type,
        title: plan.title,
        message: plan.message,
        clientId: plan.client?.id ?? null,
        projectId: project?.id ?? task?.projectId ?? null,
        taskId: task?.id ?? null,
        remindAt,
        anchorAt,
        recurrence: plan.recurrence ?? 'none',
        channels: plan.channels,
        status: plan.status,
        itemName: plan.item?.name ?? null,
        expiryDate: plan.item?.expiryDate ?? null,
        daysBefore: plan.item?.daysBefore ?? null,
        lastSentAt,
        lastError: plan.error ?? null,
        createdBy: owner?.memberId ?? null,
        createdAt: subDays(anchorAt, 2),
      })
      .returning({ id: reminders.id });
    if (!row) continue;
    made += 1;
    const recipients = plan.members ?? [];
    if (recipients.length) {
      await db
        .insert(reminderMembers)
        .values(recipients.map((m) => ({ orgId, reminderId: row.id, memberId: m.memberId })));
    }
    // Who each past occurrence reached, on which channel.
    const targets = (): { channel: 'email' | 'in_app'; recipient: string; memberId: string | null }[] => {
      const out: { channel: 'email' | 'in_app'; recipient: string; memberId: string | null }[] = [];
      if (plan.type !== 'team' && plan.client?.email && plan.channels.includes('email')) {
        out.push({ channel: 'email', recipient: plan.client.email, memberId: null });
      }
      if (plan.type !== 'client') {
        for (const m of recipients) {
          for (const channel of plan.channels) {
            out.push({ channel, recipient: m.email, memberId: m.memberId });
          }
        }
      }
      return out;
    };
    const deliveries: (typeof reminderDeliveries.$inferInsert)[] = history.flatMap((daysAgo) => {
      const occurrenceAt = new Date(now.getTime() - daysAgo * DAY_MS);
      return targets().map((t) => ({
        orgId,
        reminderId: row.id,
        occurrenceAt,
        channel: t.channel,
        recipient: t.recipient,
        memberId: t.memberId,
        status: 'sent' as const,
        attempt: 1,
        sentAt: new Date(occurrenceAt.getTime() + 20_000),
      }));
    });
    if (plan.status === 'failed') {
      // Five attempts with backoff, each refused, as the queue would have recorded them.
      for (let attempt = 1; attempt <= 5; attempt++) {
        for (const t of targets()) {
          deliveries.push({
            orgId,
            reminderId: row.id,
            occurrenceAt: remindAt,
            channel: t.channel,
            recipient: t.recipient,
            memberId: t.memberId,
            status: 'failed',
            attempt,
            error: plan.error ?? null,
            sentAt: new Date(remindAt.getTime() + 30_000 * 2 ** (attempt - 1)),
          });
        }
      }
    }
    if (deliveries.length) await db.insert(reminderDeliveries).values(deliveries);
  }
  return made;
}

// A complete one-page PDF, so the preview shows something.
const pdf = (text: string) => `%PDF-1.4
1 0 obj<</Type/Catalog/Pages 2 0 R>>endobj
2 0 obj<</Type/Pages/Kids[3 0 R]/Count 1>>endobj
3 0 obj<</Type/Page/Parent 2 0 R/MediaBox[0 0 300 100]/Contents 4 0 R/Resources<</Font<</F1 5 0 R>>>>>>endobj
4 0 obj<</Length ${text.length + 30}>>stream
BT /F1 14 Tf 20 45 Td (${text}) Tj ET
endstream endobj
5 0 obj<</Type/Font/Subtype/Type1/BaseFont/Helvetica>>endobj
trailer<</Root 1 0 R>>
%%EOF`;

type TDemoFile = { name: string; contentType: string; body: (client: string) => string };
const CLIENT_TREE: { folder: string; portal: boolean; files: TDemoFile[] }[] = [
  {
    folder: 'KYC',
    portal: true,
    files: [
      { name: 'PAN card.pdf', contentType: 'application/pdf', body: (c) => pdf(`PAN card of ${c}`) },
      {
        name: 'Address proof.pdf',
        contentType: 'application/pdf',
        body: (c) => pdf(`Address proof of ${c}`),
      },
    ],
  },
  {
    folder: 'Returns',
    portal: true,
    files: [
      {
        name: 'GSTR-3B March 2026.pdf',
        contentType: 'application/pdf',
        body: (c) => pdf(`GSTR-3B March 2026 - ${c}`),
      },
    ],
  },
  {
    folder: 'Working papers',
    portal: false,
    files: [
      {
        name: 'Trial balance FY 2025-26.csv',
        contentType: 'text/csv',
        body: () => 'account,debit,credit\nSales,,1250000\nPurchases,840000,\nRent,120000,\nBank,290000,\n',
      },
      {
        name: 'Reconciliation notes.txt',
        contentType: 'text/plain',
        body: (c) => `${c}: two purchase invoices missing from GSTR-2B; asked the client on the 4th.\n`,
      },
    ],
  },
];
const VAULT_TREE: { folder: string; files: TDemoFile[] }[] = [
  {
    folder: 'Firm policies',
    files: [
      {
        name: 'Leave policy 2026.txt',
        contentType: 'text/plain',
        body: () => 'Twenty-one days of earned leave a year; apply on the Leaves page.\n',
      },
      {
        name: 'Engagement letter template.txt',
        contentType: 'text/plain',
        body: () => 'Dear {client},\nThis letter sets out the terms of our engagement...\n',
      },
    ],
  },
];

/**
 * Document trees for a few clients (KYC and Returns shared with the portal, working papers kept
 * inside) and the firm vault, with real stored files, versions and checksums; a couple of the
 * clients' files attached to their open tasks.
 */
export async function createDemoDocuments(
  db: TDb,
  storage: TStorage,
  orgId: string,
  ownerId: string,
  clientCount = 10,
) {
  let files = 0;
  const store = async (
    folderId: string,
    clientId: string | null,
    file: TDemoFile,
    owner: string,
    visibleToPortal: boolean,
  ) => {
    const bytes = Buffer.from(file.body(owner));
    const storageKey = `${orgId}/${uuidv7()}`;
    await storage.put(storageKey, Readable.from([bytes]), { contentType: 'application/octet-stream' });
    const documentId = uuidv7();
    const versionId = uuidv7();
    await db.insert(documents).values({
      id: documentId,
      orgId,
      folderId,
      clientId,
      name: file.name,
      currentVersion: 1,
      size: bytes.length,
      contentType: file.contentType,
      visibleToPortal,
      uploadedByMemberId: ownerId,
    });
    await db.insert(documentVersions).values({
      id: versionId,
      orgId,
      documentId,
      version: 1,
      size: bytes.length,
      contentType: file.contentType,
      checksumSha256: createHash('sha256').update(bytes).digest('hex'),
      storageKey,
      uploadedByMemberId: ownerId,
    });
    await db
      .update(documents)
      .set({ currentVersionId: versionId })
      .where(and(eq(documents.orgId, orgId), eq(documents.id, documentId)));
    files += 1;
    return documentId;
  };
  const folder = async (clientId: string | null, parentId: string | null, name: string, portal = false) => {
    const [row] = await db
      .insert(documentFolders)
      .values({ orgId, clientId, parentId, name, visibleToPortal: portal, createdByMemberId: ownerId })
      .returning({ id: documentFolders.id });
    if (!row) throw new Error('demo folder not created');
    return row.id;
  };

  const book = await someClients(db, orgId, clientCount);
  for (const client of book) {
    const root = await folder(client.id, null, 'Documents');
    const attachable: string[] = [];
    for (const branch of CLIENT_TREE) {
      const id = await folder(client.id, root, branch.folder, branch.portal);
      for (const file of branch.files) {
        const doc = await store(id, client.id, file, client.name, branch.portal);
        if (branch.folder === 'Working papers') attachable.push(doc);
      }
    }
    // The working papers go on the client's first open task.
    const [open] = await db
      .select({ id: tasks.id })
      .from(tasks)
      .where(and(eq(tasks.orgId, orgId), eq(tasks.clientId, client.id), sql`${tasks.status} <> 'COMPLETED'`))
      .orderBy(asc(tasks.dueDate))
      .limit(1);
    if (open && attachable.length) {
      await db.insert(taskAttachments).values(
        attachable.map((documentId) => ({
          orgId,
          taskId: open.id,
          documentId,
          attachedByMemberId: ownerId,
        })),
      );
    }
  }
  const vault = await folder(null, null, 'Vault');
  for (const branch of VAULT_TREE) {
    const id = await folder(null, vault, branch.folder);
    for (const file of branch.files) await store(id, null, file, 'the firm', false);
  }
  return { clients: book.length, files };
}
