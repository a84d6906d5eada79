import { randomUUID } from 'node:crypto';
import { Readable } from 'node:stream';
import { eq, sql } from 'drizzle-orm';
import { ALL_PERMISSIONS } from '../../domain/permissions';
import {
  allocations,
  firmExports,
  members,
  messagesHeld,
  roles,
  timesheetEntries,
  timesheetTimers,
} from '../db/schema';
import type { TTestApp } from './app';
import { issuedInvoice } from './billing';
import { seedPortalUser } from './portal';
import { seedClientRequests, seedRequestTemplates } from './requests';
import { seedFirmWithRoles } from './seeded-firm';

// The fixtures of the staff tenancy matrix (src/server/trpc/matrix.*.test.ts): one firm with a record
// of every kind, built through the product's own procedures and routes. Every name carries the
// firm's marker, so an answer that shows another firm's data is caught by its text as well as its ids.

export const PNG = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==',
  'base64',
);

/** A one-page PDF: what a signature request can be made for. */
export const MINI_PDF = Buffer.from(
  '%PDF-1.4\n1 0 obj<</Type/Catalog/Pages 2 0 R>>endobj\n2 0 obj<</Type/Pages/Kids[3 0 R]/Count 1>>endobj\n3 0 obj<</Type/Page/Parent 2 0 R/MediaBox[0 0 200 200]>>endobj\ntrailer<</Root 1 0 R>>\n%%EOF\n',
);

export function bearer(token: string) {
  return { authorization: `Bearer ${token}` };
}

async function upload(t: TTestApp, token: string, query: string, name: string, bytes: Uint8Array) {
  const form = new FormData();
  form.append('file', new Blob([bytes as BlobPart]), name);
  const res = await fetch(`${t.url}/api/documents/upload?${query}`, {
    method: 'POST',
    headers: bearer(token),
    body: form,
  });
  const body = (await res.json()) as { id: string; message?: string };
  if (res.status !== 201) throw new Error(`upload ${name}: ${res.status} ${body.message}`);
  return body;
}

export async function importUpload(t: TTestApp, headers: Record<string, string>, text: string) {
  const form = new FormData();
  form.append('file', new Blob([text]), 'clients.csv');
  return fetch(`${t.url}/api/clients/import`, { method: 'POST', headers, body: form });
}

/**
 * One client with a record of every kind about it, plus spare records for the procedures that
 * delete, archive or end one (each row acts on its own, so no row depends on another having run).
 */
async function seedClientBundle(t: TTestApp, firm: TFirmBase, label: string) {
  const { api, marker } = firm;
  const name = (what: string) => `${marker} ${label} ${what}`;
  const code = () => `${marker.slice(0, 3)}${Math.random().toString(36).slice(2, 10)}`;
  const client = await api.clients.create.mutate({
    code: code(),
    name: name('client'),
    email: `${label}-${randomUUID()}@example.test`,
  });
  const archivable = await api.clients.create.mutate({ code: code(), name: name('archivable client') });
  // Registrations (issue 39): a regular GST taxpayer with a PAN, so the statutory gaps list it.
  await api.statutory.setRegistrations.mutate({
    clientId: client.id,
    data: { gstin: '27AAPFU0939F1ZV', gstScheme: 'regular', pan: 'AAPFU0939F' },
  });

  // Billing: an open invoice, a receipt that settled part of another and left credit (its allocation
  // to take back), and a receipt to reverse.
  const orgId = firm.org.id;
  const invoice = await issuedInvoice(t, orgId, client.id, 100_000, { description: name('invoice') });
  const settled = await issuedInvoice(t, orgId, client.id, 20_000, { description: name('settled invoice') });
  const receivedOn = '2026-04-15';
  const payment = await api.billing.payments.record.mutate({
    clientId: client.id,
    receivedOn,
    method: 'bank_transfer',
    reference: name('payment'),
    amount: 50_000,
    tdsAmount: 1_000,
    tdsSection: '194J',
    allocations: [{ invoiceId: settled.id, amount: 10_000 }],
  });
  const doomedPayment = await api.billing.payments.record.mutate({
    clientId: client.id,
    receivedOn,
    method: 'cash',
    reference: name('doomed payment'),
    amount: 1_000,
  });
  const [allocation] = await t.db
    .select({ id: allocations.id })
    .from(allocations)
    .where(eq(allocations.paymentId, payment.id));
  if (!allocation) throw new Error('allocation not seeded');

  const engagement = await api.engagements.create.mutate({
    clientId: client.id,
    serviceId: firm.service.id,
    startDate: '2025-04-01',
  });
  const doomedEngagement = await api.engagements.create.mutate({
    clientId: client.id,
    serviceId: firm.service.id,
    startDate: '2025-04-01',
  });

  const project = await api.projects.create.mutate({
    clientId: client.id,
    name: name('project'),
    dueDate: '2099-03-31',
    memberIds: [firm.admin.id],
  });
  const archivableProject = await api.projects.create.mutate({
    clientId: client.id,
    name: name('old project'),
  });
  const doomedProject = await api.projects.create.mutate({
    clientId: client.id,
    name: name('doomed project'),
  });

  const task = await api.tasks.create.mutate({
    title: name('task'),
    clientId: client.id,
    projectId: project.id,
    assigneeIds: [firm.owner.id],
    dueDate: '2099-01-31',
    tags: ['matrix'],
    checklist: [{ text: name('checklist item') }, { text: name('second item') }],
  });
  const task2 = await api.tasks.create.mutate({ title: name('second task'), clientId: client.id });
  const task3 = await api.tasks.create.mutate({ title: name('third task'), clientId: client.id });
  const doomedTask = await api.tasks.create.mutate({ title: name('doomed task'), clientId: client.id });
  const detail = await api.tasks.get.query({ taskId: task.id });
  const checklist = detail.checklist as { id: string }[];
  const comment = await api.tasks.comments.add.mutate({ taskId: task.id, body: name('comment') });

  const root = await api.documents.open.mutate({ clientId: client.id });
  const folder = await api.documents.createFolder.mutate({ parentId: root.id, name: name('folder') });
  const doomedFolder = await api.documents.createFolder.mutate({
    parentId: root.id,
    name: name('doomed folder'),
  });
  const movable = await api.documents.createFolder.mutate({ parentId: root.id, name: name('movable') });
  const shared = await api.documents.createFolder.mutate({ parentId: root.id, name: name('shared') });
  await api.documents.setFolderVisibility.mutate({ folderId: shared.id, visibleToPortal: true });
  const document = await upload(t, firm.owner.token, `folderId=${folder.id}`, `${name('scan')}.png`, PNG);
  const pdfDocument = await upload(
    t,
    firm.owner.token,
    `folderId=${folder.id}`,
    `${name('form')}.pdf`,
    MINI_PDF,
  );
  const doomedDocument = await upload(
    t,
    firm.owner.token,
    `folderId=${folder.id}`,
    `${name('doomed')}.png`,
    PNG,
  );
  const trashedDocument = await upload(
    t,
    firm.owner.token,
    `folderId=${folder.id}`,
    `${name('trashed')}.png`,
    PNG,
  );
  await api.documents.delete.mutate({ documentId: trashedDocument.id });
  const sharedDocument = await upload(
    t,
    firm.owner.token,
    `folderId=${shared.id}`,
    `${name('shared')}.png`,
    PNG,
  );
  await api.documents.setVisibility.mutate({ documentId: sharedDocument.id, visibleToPortal: true });
  const attached = await upload(t, firm.owner.token, `taskId=${task.id}`, `${name('attached')}.png`, PNG);

  const remindAt = new Date(Date.now() + 7 * 24 * 3600_000);
  const reminder = await api.reminders.create.mutate({
    type: 'client',
    title: name('reminder'),
    clientId: client.id,
    remindAt,
    channels: ['email'],
  });
  const doomedReminder = await api.reminders.create.mutate({
    type: 'client',
    title: name('doomed reminder'),
    clientId: client.id,
    remindAt,
    channels: ['email'],
  });

  const vault = await api.vault.create.mutate({
    title: name('bank login'),
    clientId: client.id,
    password: 'S3cret!',
  });
  const doomedVault = await api.vault.create.mutate({
    title: name('old login'),
    clientId: client.id,
    password: 'x',
  });

  const invite = (who: string) =>
    api.clientUsers.invite.mutate({
      clientId: client.id,
      email: `${who}-${randomUUID()}@example.test`,
      name: name(who),
      phone: '',
    });
  const clientUser = await invite('director');
  const doomedClientUser = await invite('accountant');
  const timeEntry = await api.timesheets.create.mutate({
    date: '2026-03-03',
    minutes: 90,
    clientId: client.id,
  });
  const doomedTimeEntry = await api.timesheets.create.mutate({
    date: '2026-03-04',
    minutes: 30,
    clientId: client.id,
  });

  // Work in progress: approved billable time (as approval leaves it), disbursements, and a draft
  // made from WIP for the rows that add to one.
  const approvedTime = async (minutes: number) => {
    const [row] = await t.db
      .insert(timesheetEntries)
      .values({
        orgId: firm.org.id,
        memberId: firm.owner.id,
        clientId: client.id,
        date: '2026-03-05',
        minutes,
        billable: true,
        status: 'approved',
        billRate: 100_000,
        note: name('billable work'),
      })
      .returning();
    if (!row) throw new Error('time not created');
    return row;
  };
  const billableTime = await approvedTime(60);
  const billableTime2 = await approvedTime(30);
  const disbursement = (what: string) =>
    api.billing.wip.disbursements.create.mutate({
      clientId: client.id,
      spentOn: '2026-03-05',
      kind: 'courier',
      description: name(what),
      amount: 50_000,
    });
  const wipDisbursement = await disbursement('courier');
  const doomedDisbursement = await disbursement('doomed courier');
  const draftDisbursement = await disbursement('drafted courier');
  const { invoiceId: wipDraft } = await api.billing.wip.createInvoice.mutate({
    clientId: client.id,
    disbursementIds: [draftDisbursement.id],
  });

  // Timers the system stopped, waiting for their owner's end time (a week no row submits).
  const stoppedTimer = async () => {
    const [row] = await t.db
      .insert(timesheetTimers)
      .values({
        orgId: firm.org.id,
        memberId: firm.owner.id,
        startedAt: new Date('2026-03-17T09:00:00Z'),
        stoppedAt: new Date('2026-03-18T01:00:00Z'),
        autoStopped: true,
        taskId: task.id,
        clientId: client.id,
      })
      .returning();
    if (!row) throw new Error('timer not created');
    return row;
  };
  const timer = await stoppedTimer();
  const doomedTimer = await stoppedTimer();
  const billing = await seedInvoices(api, client.id, name);

  return {
    client,
    archivable,
    invoice,
    payment,
    doomedPayment,
    allocation,
    engagement,
    doomedEngagement,
    project,
    archivableProject,
    doomedProject,
    task,
    task2,
    task3,
    doomedTask,
    checklist,
    comment,
    root,
    folder,
    doomedFolder,
    movable,
    shared,
    document,
    pdfDocument,
    doomedDocument,
    trashedDocument,
    sharedDocument,
    attached,
    reminder,
    doomedReminder,
    vault,
    doomedVault,
    clientUser,
    doomedClientUser,
    timeEntry,
    doomedTimeEntry,
    timer,
    doomedTimer,
    billing,
    billableTime,
    billableTime2,
    wipDisbursement,
    doomedDisbursement,
    wipDraft,
  };
}

/** Invoices of the client: drafts to edit, issue and delete, and issued ones to send, credit and void. */
async function seedInvoices(api: TFirmBase['api'], clientId: string, name: (what: string) => string) {
  const line = {
    description: name('invoice line'),
    serviceId: null,
    taxCode: '',
    quantityMilli: 1000,
    rate: 150_000,
    discount: 0,
    taxRateBp: 0,
  };
  const draftWithLine = async () => {
    const draft = await api.billing.invoices.create.mutate({ clientId });
    await api.billing.invoices.update.mutate({ invoiceId: draft.id, lines: [line], notes: '', terms: '' });
    return draft;
  };
  const issued = async () => {
    const draft = await draftWithLine();
    await api.billing.invoices.issue.mutate({ invoiceId: draft.id });
    return draft;
  };
  const draft = await draftWithLine();
  const [draftLine] = (await api.billing.invoices.get.query({ invoiceId: draft.id })).lines;
  if (!draftLine) throw new Error('invoice line not created');
  return {
    draft,
    draftLineId: draftLine.id,
    line,
    toIssue: await draftWithLine(),
    toIssueAndSend: await draftWithLine(),
    doomedDraft: await draftWithLine(),
    invoice: await issued(),
    creditable: await issued(),
    voidable: await issued(),
  };
}

async function seedFirmBase(t: TTestApp, marker: string) {
  const firm = await seedFirmWithRoles(t, `${marker} & Co`);
  const api = t.client(firm.owner.token);
  // Every right but clients.all (which lifts the rule), and only the clients they are on the team
  // of: a NOT_FOUND for them on another client is the assigned-clients rule, never a permission.
  const [limitedRole] = await t.db
    .insert(roles)
    .values({
      orgId: firm.org.id,
      name: `${marker} assigned only`,
      permissions: ALL_PERMISSIONS.filter((p) => p !== 'clients.all'),
      assignedClientsOnly: true,
    })
    .returning();
  if (!limitedRole) throw new Error('role not created');
  const sub = randomUUID();
  const [limitedRow] = await t.db
    .insert(members)
    .values({
      orgId: firm.org.id,
      sub,
      email: `limited-${sub}@example.test`,
      firstName: marker,
      lastName: 'Limited',
      roleId: limitedRole.id,
      isVerified: true,
    })
    .returning();
  if (!limitedRow) throw new Error('member not created');
  const limited = { ...limitedRow, token: await t.tokenFor(sub) };

  const role = await api.roles.create.mutate({ name: `${marker} reviewer`, permissions: ['tasks.view'] });
  const doomedRole = await api.roles.create.mutate({ name: `${marker} doomed`, permissions: [] });
  const group = await api.clientGroups.create.mutate({ name: `${marker} group` });
  const doomedGroup = await api.clientGroups.create.mutate({ name: `${marker} doomed group` });
  const template = await api.projectTemplates.create.mutate({ name: `${marker} template` });
  const archivableTemplate = await api.projectTemplates.create.mutate({ name: `${marker} old template` });
  const doomedTemplate = await api.projectTemplates.create.mutate({ name: `${marker} doomed template` });
  const blueprint = await api.projectTemplates.blueprints.add.mutate({
    templateId: template.id,
    title: `${marker} blueprint`,
    dueOffsetDays: 10,
  });
  const doomedBlueprint = await api.projectTemplates.blueprints.add.mutate({
    templateId: template.id,
    title: `${marker} doomed blueprint`,
    dueOffsetDays: 20,
  });
  const service = await api.services.create.mutate({
    name: `${marker} GST`,
    code: `${marker.slice(0, 3)}-GST`,
    frequency: 'monthly',
  });
  const archivableService = await api.services.create.mutate({
    name: `${marker} old service`,
    code: `${marker.slice(0, 3)}-OLD`,
    frequency: 'yearly',
  });
  // The statutory calendar (issue 39): a service linked to a filing, an extension not yet applied.
  const filingService = await api.services.create.mutate({
    name: `${marker} GSTR-3B`,
    code: `${marker.slice(0, 3)}-3B`,
    frequency: 'monthly',
    statutoryFilingCode: 'IN.GSTR3B.M',
  });
  const extension = await api.statutory.createExtension.mutate({
    filingCode: 'IN.GSTR3B.M',
    periodKey: '2026-03',
    dueDate: '2026-04-30',
  });
  const memberInvite = await api.team.invite.mutate({
    email: `invitee-${randomUUID()}@example.test`,
    roleId: role.id,
  });
  const doomedInvite = await api.team.invite.mutate({
    email: `gone-${randomUUID()}@example.test`,
    roleId: role.id,
  });
  const firmRoot = await api.documents.open.mutate({ clientId: null });
  const firmVault = await api.vault.create.mutate({ title: `${marker} firm portal`, password: 'firm!' });
  await api.settings.uploadLogo.mutate({ dataBase64: PNG.toString('base64') });
  // A notification for the owner: the admin assigns them a task.
  await t.client(firm.admin.token).tasks.create.mutate({
    title: `${marker} for the owner`,
    assigneeIds: [firm.owner.id],
  });
  const [notification] = (await api.notifications.list.query({})).rows as { id: string }[];
  if (!notification) throw new Error('no notification');
  const leave = await seedLeave(t, firm, marker);
  const importRes = await importUpload(
    t,
    bearer(firm.owner.token),
    `Client code,Client name\r\n${marker.slice(0, 3)}IMP1,${marker} imported\r\n,missing code\r\n`,
  );
  const clientImport = (await importRes.json()) as { importId: string };
  if (!clientImport.importId) throw new Error(`import not staged: ${JSON.stringify(clientImport)}`);
  const doomedImportRes = await importUpload(
    t,
    bearer(firm.owner.token),
    `Client code,Client name\r\n${marker.slice(0, 3)}IMP2,${marker} doomed import\r\n`,
  );
  const doomedImport = (await doomedImportRes.json()) as { importId: string };
  if (!doomedImport.importId) throw new Error(`import not staged: ${JSON.stringify(doomedImport)}`);

  return {
    ...firm,
    marker,
    api,
    limited,
    role,
    doomedRole,
    group,
    doomedGroup,
    template,
    archivableTemplate,
    doomedTemplate,
    blueprint,
    doomedBlueprint,
    service,
    archivableService,
    filingService,
    extension,
    memberInvite,
    doomedInvite,
    firmRoot,
    firmVault,
    notification,
    importId: clientImport.importId,
    doomedImportId: doomedImport.importId,
    leave,
  };
}

async function leaveAttachment(t: TTestApp, token: string, name: string) {
  const form = new FormData();
  form.append('file', new Blob([PNG]), name);
  const res = await fetch(`${t.url}/api/leave/attachments`, {
    method: 'POST',
    headers: bearer(token),
    body: form,
  });
  const body = (await res.json()) as { id: string; message?: string };
  if (res.status !== 201) throw new Error(`leave attachment ${name}: ${res.status} ${body.message}`);
  return body;
}

/** The year the matrix's leave falls in: next year, so requests are in the future and cancellable. */
export const LEAVE_YEAR = new Date().getUTCFullYear() + 1;

/** Leave types, holidays and two pending requests: the staff member's (to decide) and the owner's (to cancel). */
async function seedLeave(t: TTestApp, firm: Awaited<ReturnType<typeof seedFirmWithRoles>>, marker: string) {
  const api = t.client(firm.owner.token);
  const rules = {
    allowNegative: true,
    carryForwardCap: null,
    carryForwardExpiryMonths: null,
    maxConsecutiveDays: null,
  };
  const type = await api.leave.types.create.mutate({ name: `${marker} annual`, allowance: 20, ...rules });
  const doomedType = await api.leave.types.create.mutate({
    name: `${marker} old leave`,
    allowance: 5,
    ...rules,
  });
  const holiday = await api.leave.holidays.create.mutate({
    date: `${LEAVE_YEAR}-01-26`,
    name: `${marker} day`,
  });
  const doomedHoliday = await api.leave.holidays.create.mutate({
    date: `${LEAVE_YEAR}-08-15`,
    name: `${marker} gone`,
  });
  // The staff member's request carries a file (an image, so it previews too); a spare upload waits
  // for a request, for the matrix's attempts to put it on another firm's.
  const attachment = await leaveAttachment(t, firm.staff.token, `${marker} certificate.png`);
  const spareAttachment = await leaveAttachment(t, firm.owner.token, `${marker} spare.png`);
  const request = await t.client(firm.staff.token).leave.requests.submit.mutate({
    leaveTypeId: type.id,
    startDate: `${LEAVE_YEAR}-03-02`,
    endDate: `${LEAVE_YEAR}-03-04`,
    attachmentId: attachment.id,
  });
  const ownRequest = await api.leave.requests.submit.mutate({
    leaveTypeId: type.id,
    startDate: `${LEAVE_YEAR}-04-06`,
    endDate: `${LEAVE_YEAR}-04-06`,
  });
  return { type, doomedType, holiday, doomedHoliday, request, ownRequest, attachment, spareAttachment };
}
type TFirmBase = Awaited<ReturnType<typeof seedFirmBase>>;

/**
 * A firm for the matrix: `assigned` is a client the limited member is on the team of, `unassigned`
 * one they are not; a portal user acts for the assigned client.
 */
export async function seedTenancyFirm(t: TTestApp, marker: string) {
  const base = await seedFirmBase(t, marker);
  const assigned = await seedClientBundle(t, base, 'assigned');
  const unassigned = await seedClientBundle(t, base, 'unassigned');
  for (const member of [base.limited, base.staff, base.admin]) {
    await base.api.clients.team.add.mutate({ clientId: assigned.client.id, memberId: member.id });
  }
  for (const member of [base.staff, base.admin]) {
    await base.api.clients.team.add.mutate({ clientId: unassigned.client.id, memberId: member.id });
  }
  await base.api.clientGroups.addClients.mutate({
    groupId: base.group.id,
    clientIds: [assigned.client.id, unassigned.client.id],
  });
  const portal = await seedPortalUser(t, { orgId: base.org.id, clientIds: [assigned.client.id] });
  // A finished whole-firm export (an empty zip), as the export job leaves one.
  const exportKey = `${base.org.id}/${randomUUID()}`;
  const emptyZip = Buffer.from([0x50, 0x4b, 0x05, 0x06, ...new Array(18).fill(0)]);
  await t.storage.put(exportKey, Readable.from([emptyZip]));
  const [firmExport] = await t.db
    .insert(firmExports)
    .values({
      orgId: base.org.id,
      requestedBy: base.owner.id,
      status: 'ready',
      storageKey: exportKey,
      size: emptyZip.length,
      finishedAt: new Date(),
      expiresAt: new Date(Date.now() + 7 * 24 * 60 * 60_000),
    })
    .returning({ id: firmExports.id });
  if (!firmExport) throw new Error('firm export not seeded');
  // "Last active" is written (throttled, not awaited) by a member's first call: done now, so that
  // the matrix's before/after snapshots see only what a call itself changed.
  await t.db.update(members).set({ lastActiveAt: new Date() }).where(eq(members.orgId, base.org.id));
  const broadcasts = await seedBroadcasts(base.api, base.marker);
  // Public-API keys (issue 40): the owner's, one made by the limited member with their role (so it
  // sees only their assigned clients), and one to revoke.
  const apiKey = await base.api.apiKeys.create.mutate({
    name: `${base.marker} key`,
    roleId: base.owner.roleId,
  });
  const limitedApiKey = await t
    .client(base.limited.token)
    .apiKeys.create.mutate({ name: `${base.marker} limited key`, roleId: base.limited.roleId });
  // Webhooks (issue 40): a subscription with a delivery (its test event), and one to delete. An
  // address literal: no name to look up, and public, so the SSRF guard lets it through.
  const webhook = await base.api.webhooks.create.mutate({
    url: 'https://93.184.216.34/hooks',
    events: ['client.updated'],
  });
  const doomedWebhook = await base.api.webhooks.create.mutate({
    url: 'https://93.184.216.34/doomed',
    events: ['client.created'],
  });
  const webhookDelivery = await base.api.webhooks.test.mutate({ subscriptionId: webhook.id });
  const doomedApiKey = await base.api.apiKeys.create.mutate({
    name: `${base.marker} doomed key`,
    roleId: base.owner.roleId,
  });
  // Client requests (issue 36): sent to the portal user on the assigned client, to nobody elsewhere.
  const requestTemplates = await seedRequestTemplates(t, base.org.id, base.marker);
  const recipientId = portal.user.id;
  const withRequests = async (bundle: typeof assigned, recipientIds: string[]) => ({
    ...bundle,
    requests: {
      ...(await seedClientRequests(t, {
        orgId: base.org.id,
        clientId: bundle.client.id,
        recipientIds,
        marker: base.marker,
      })),
      recipientId,
    },
  });
  const proposalTemplate = await base.api.proposals.templates.save.mutate(proposalContent(base));
  const doomedProposalTemplate = await base.api.proposals.templates.save.mutate({
    ...proposalContent(base),
    name: `${base.marker} doomed proposal template`,
  });
  const bundle = async (b: typeof assigned, portalUserIds: string[]) => ({
    ...(await withRequests(b, portalUserIds)),
    messages: await seedMessages(t, base, b.client.id, portalUserIds),
    proposals: await seedProposals(base, b.client.id),
  });
  const [held] = await t.db
    .insert(messagesHeld)
    .values({
      orgId: base.org.id,
      fromAddress: 'stranger@example.test',
      subject: `${base.marker} held`,
      body: 'Who is this?',
      reason: 'not_member',
    })
    .returning({ id: messagesHeld.id });
  if (!held) throw new Error('held mail not seeded');
  // Automations (issue 41): a rule to read, change and switch, and one to delete.
  const ruleInput = (name: string) => ({
    name: `${base.marker} ${name}`,
    trigger: { kind: 'project.created' as const },
    actions: [{ kind: 'notifyMembers' as const, owner: true, memberIds: [], message: 'New project' }],
  });
  const automations = {
    rule: await base.api.automations.create.mutate(ruleInput('rule')),
    doomedRule: await base.api.automations.create.mutate(ruleInput('doomed rule')),
  };
  return {
    ...base,
    assigned: await bundle(assigned, [recipientId]),
    unassigned: await bundle(unassigned, []),
    portal,
    firmExport,
    broadcasts,
    apiKeys: { owner: apiKey, limited: limitedApiKey, doomed: doomedApiKey },
    webhooks: { webhook, doomed: doomedWebhook, delivery: webhookDelivery },
    requestTemplates,
    proposalTemplates: { template: proposalTemplate, doomed: doomedProposalTemplate },
    heldMail: held,
    automations,
  };
}

/** A proposal's letter and one package of the firm's service: a template's or a proposal's content. */
export function proposalContent(base: Pick<TFirmBase, 'marker' | 'service'>) {
  return {
    name: `${base.marker} proposal template`,
    letterHtml: '<p>Dear {{contact_name}}, {{firm_name}} will serve {{client_name}}.</p>{{fees}}',
    packages: [
      {
        name: 'Basic',
        services: [
          {
            serviceId: base.service.id,
            billingMode: 'fixed' as const,
            fee: '1500',
            feeTrigger: 'period_start' as const,
          },
        ],
      },
    ],
    addOns: [],
    terms: '',
  };
}

/** A client's proposals: a draft, one to send and one sent (to withdraw). */
async function seedProposals(base: TFirmBase, clientId: string) {
  const { name: _name, ...content } = proposalContent(base);
  const make = (title: string) =>
    base.api.proposals.create.mutate({
      ...content,
      clientId,
      title: `${base.marker} ${title}`,
      expiresOn: '2099-12-31',
      signers: [{ name: 'Matrix Signer', email: `signer-${randomUUID()}@example.test` }],
    });
  const draft = await make('draft proposal');
  const toSend = await make('proposal to send');
  const toWithdraw = await make('proposal to withdraw');
  await base.api.proposals.send.mutate({ proposalId: toWithdraw.id });
  return { draft, toSend, toWithdraw };
}

/** A conversation with the client's portal users on it, and a file the firm sent in it. */
async function seedMessages(t: TTestApp, base: TFirmBase, clientId: string, clientUserIds: string[]) {
  const thread = await base.api.messages.create.mutate({
    clientId,
    subject: `${base.marker} conversation`,
    body: 'Please send the March statements.',
    clientUserIds,
  });
  const form = new FormData();
  form.append('file', new Blob([PNG]), `${base.marker} letter.png`);
  const res = await fetch(`${t.url}/api/messages/upload?threadId=${thread.id}`, {
    method: 'POST',
    headers: bearer(base.owner.token),
    body: form,
  });
  const attachment = (await res.json()) as { documentId: string; message?: string };
  if (res.status !== 201) throw new Error(`message attachment: ${res.status} ${attachment.message}`);
  await base.api.messages.post.mutate({
    threadId: thread.id,
    body: 'The engagement letter, attached.',
    attachmentIds: [attachment.documentId],
  });
  // Held mail of this client, to release (one for the own call, one for the mixed one).
  const heldOf = async (n: number) => {
    const [row] = await t.db
      .insert(messagesHeld)
      .values({
        orgId: base.org.id,
        clientId,
        threadId: thread.id,
        fromAddress: `held-${n}@example.test`,
        subject: `${base.marker} held for the client ${n}`,
        body: 'A mail from someone not on the thread.',
        reason: 'not_participant',
      })
      .returning({ id: messagesHeld.id });
    if (!row) throw new Error('held mail not seeded');
    return row;
  };
  return { thread, attachment, held: await heldOf(1), heldMixed: await heldOf(2) };
}

/** A broadcast template (and one to delete), and broadcasts sending, paused and to cancel. */
async function seedBroadcasts(api: TFirmBase['api'], marker: string) {
  const content = { subject: `${marker} news for {{client_name}}`, bodyHtml: `<p>${marker} news</p>` };
  const template = await api.broadcastTemplates.create.mutate({ name: `${marker} template`, ...content });
  const doomedTemplate = await api.broadcastTemplates.create.mutate({ name: `${marker} doomed`, ...content });
  const make = () => api.broadcasts.create.mutate({ ...content, audience: {}, templateId: template.id });
  const sending = await make();
  const paused = await make();
  await api.broadcasts.pause.mutate({ id: paused.id });
  const doomed = await make();
  return { template, doomedTemplate, sending, paused, doomed };
}
export type TTenancyFirm = Awaited<ReturnType<typeof seedTenancyFirm>>;
export type TClientBundle = TTenancyFirm['assigned'];

/** Every table with an org_id column (and the org's own row): what a firm's data is. */
async function orgTables(t: TTestApp) {
  const result = (await t.db.execute(sql`
    select table_name from information_schema.columns
    where column_name = 'org_id' and table_schema = current_schema()
    order by table_name`)) as unknown as { rows: { table_name: string }[] };
  return result.rows.map((r) => r.table_name);
}

let tables: Promise<string[]> | undefined;

/**
 * Heartbeats a caller's own call writes after its answer, unawaited and throttled to once a minute
 * (a member's last activity, a key's last use): on a slow machine one lands between two snapshots
 * of a call that changed nothing, so they are left out of a row's text.
 */
const HEARTBEATS: Record<string, string[]> = { members: ['last_active_at'], api_keys: ['last_used_at'] };
const rowText = (table: string) => {
  const skip = HEARTBEATS[table];
  return skip
    ? sql`(to_jsonb(x) - ${sql.raw(`array[${skip.map((c) => `'${c}'`).join(', ')}]`)})::text`
    : sql`x::text`;
};

/**
 * A firm's data as one text per table (every row, ordered): compare two to see what changed. One
 * query for the lot, so a snapshot before and after each call stays cheap.
 */
export async function snapshotFirm(t: TTestApp, orgId: string): Promise<Record<string, string>> {
  tables ??= orgTables(t);
  const names = await tables;
  const parts = [
    sql`select 'orgs' as t, coalesce(string_agg(x::text, E'\\n' order by x::text), '') as rows from orgs x where x.id = ${orgId}`,
    ...names.map(
      (name) =>
        sql`select ${name} as t, coalesce(string_agg(${rowText(name)}, E'\\n' order by ${rowText(name)}), '') as rows from ${sql.identifier(name)} x where x.org_id = ${orgId}`,
    ),
  ];
  const result = (await t.db.execute(sql.join(parts, sql` union all `))) as unknown as {
    rows: { t: string; rows: string }[];
  };
  return Object.fromEntries(result.rows.map((r) => [r.t, r.rows]));
}

/** The uuids in a snapshot: every id of the firm's rows, for "the answer carries none of them". */
export function idsIn(snapshot: Record<string, string>) {
  const ids = new Set<string>();
  for (const text of Object.values(snapshot)) {
    for (const m of text.matchAll(/[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/g))
      ids.add(m[0]);
  }
  return ids;
}
