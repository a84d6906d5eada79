import { PORTAL_SESSION_COOKIE } from '../auth';
import type { TTestApp } from './app';
import { seedInvoice } from './billing';
import { seedPortalUser } from './portal';

/**
 * One client of a firm as the staff set it up for the portal: a shared folder (and an internal one),
 * an open client task (and an internal task), a project, an issued invoice. What the portal and
 * matrix tests work on.
 */
export async function seedPortalClient(
  t: TTestApp,
  firm: Awaited<ReturnType<TTestApp['seedFirm']>>,
  name: string,
) {
  const api = t.client(firm.owner.token);
  const client = await api.clients.create.mutate({ code: `C${Math.random().toString().slice(2, 9)}`, name });
  await api.clients.team.add.mutate({
    clientId: client.id,
    memberId: firm.staff.id,
    responsibility: 'Manager',
  });
  const root = await api.documents.open.mutate({ clientId: client.id });
  const shared = await api.documents.createFolder.mutate({ parentId: root.id, name: 'Shared with you' });
  await api.documents.setFolderVisibility.mutate({ folderId: shared.id, visibleToPortal: true });
  const internal = await api.documents.createFolder.mutate({ parentId: root.id, name: 'Working papers' });
  const project = await api.projects.create.mutate({
    clientId: client.id,
    name: `${name} annual accounts`,
    description: 'INTERNAL: fee dispute, handle carefully',
    dueDate: '2099-03-31',
  });
  const task = await api.tasks.create.mutate({
    title: `Send bank statements for ${name}`,
    description: 'All accounts, April to March',
    clientId: client.id,
    projectId: project.id,
    forClient: true,
    dueDate: '2099-01-31',
    tags: ['bank'],
    assigneeIds: [firm.owner.id],
  });
  const internalTask = await api.tasks.create.mutate({
    title: `Review ${name} ledgers (internal)`,
    clientId: client.id,
    forClient: false,
  });
  // An issued invoice (billing, issue 35).
  const invoice = await seedInvoice(t, firm.org.id, {
    clientId: client.id,
    lines: [{ description: `Annual accounts of ${name}`, rate: 250_000 }],
  });
  return { api, client, root, shared, internal, project, task, internalTask, invoice };
}

/** Two firms; the first has the portal user's client and a sibling client the user may not reach. */
export async function seedPortalWorld(t: TTestApp) {
  const firm = await t.seedFirm('Sharma & Associates');
  const otherFirm = await t.seedFirm('Other Firm LLP');
  const own = await seedPortalClient(t, firm, 'Mehta Traders');
  const sibling = await seedPortalClient(t, firm, 'Sibling Industries');
  const far = await seedPortalClient(t, otherFirm, 'Far Away Ltd');
  const portal = await seedPortalUser(t, {
    orgId: firm.org.id,
    clientIds: [own.client.id],
    name: 'Priya Mehta',
  });
  return { firm, otherFirm, own, sibling, far, portal };
}

export const portalCookie = (token: string) => ({ cookie: `${PORTAL_SESSION_COOKIE}=${token}` });

/** A portal upload as the browser sends it: multipart, with the session cookie (or other headers). */
export async function portalUpload(
  t: TTestApp,
  headers: Record<string, string>,
  query: Record<string, string>,
  name: string,
  bytes: Uint8Array | string,
) {
  const form = new FormData();
  form.append('file', new Blob([bytes as BlobPart]), name);
  const res = await fetch(`${t.url}/api/clientportal/upload?${new URLSearchParams(query)}`, {
    method: 'POST',
    headers,
    body: form,
  });
  const body = (await res.json()) as {
    id: string;
    name: string;
    version: number;
    folderId: string;
    error?: string;
    message?: string;
  };
  return { status: res.status, body };
}
