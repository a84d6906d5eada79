import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { disbursements, documentFolders, documents, roles } from '../../../db/schema';
import { createTestApp, type TTestApp } from '../../../test/app';
import { logRows, seedClient } from '../../../test/fixtures';
import { PNG } from '../../../test/tenancy';
import { billingFirm, codeOf } from './wip-fixtures';

let t: TTestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t?.close());

async function uploadReceipt(token: string, folderId: string, name: string) {
  const form = new FormData();
  form.append('file', new Blob([PNG as BlobPart], { type: 'image/png' }), name);
  const res = await fetch(`${t.url}/api/documents/upload?folderId=${folderId}`, {
    method: 'POST',
    headers: { authorization: `Bearer ${token}` },
    body: form,
  });
  expect(res.status).toBe(201);
  return (await res.json()) as { id: string; name: string };
}

describe('disbursements', () => {
  it('are recorded with a receipt in the client’s Receipts folder, changed while unbilled, then locked', async () => {
    const { firm, api, client, orgId } = await billingFirm(t, 'Receipts & Co');
    const { folderId } = await api.billing.wip.disbursements.receiptFolder.mutate({ clientId: client.id });
    // The same folder every time.
    expect((await api.billing.wip.disbursements.receiptFolder.mutate({ clientId: client.id })).folderId).toBe(
      folderId,
    );
    const [folder] = await t.db.select().from(documentFolders).where(eq(documentFolders.id, folderId));
    expect(folder).toMatchObject({ name: 'Receipts', clientId: client.id, visibleToPortal: false });
    const receipt = await uploadReceipt(firm.owner.token, folderId, 'challan.png');
    const project = await api.projects.create.mutate({ clientId: client.id, name: 'Incorporation' });

    const { id } = await api.billing.wip.disbursements.create.mutate({
      clientId: client.id,
      spentOn: '2026-03-03',
      kind: 'stamp_duty',
      description: 'Stamp duty on the lease',
      amount: 1_250_000_000,
      projectId: project.id,
      receiptDocumentId: receipt.id,
    });
    const wip = await api.billing.wip.client.query({ clientId: client.id });
    expect(wip.disbursements).toEqual([
      {
        id,
        spentOn: '2026-03-03',
        kind: 'stamp_duty',
        description: 'Stamp duty on the lease',
        amount: 1_250_000_000,
        project: { id: project.id, name: 'Incorporation' },
        receipt: { id: receipt.id, name: 'challan.png', contentType: 'image/png' },
      },
    ]);
    expect((await api.billing.wip.list.query({})).rows[0]).toMatchObject({
      disbursements: { count: 1, value: 1_250_000_000 },
      total: 1_250_000_000,
    });

    const edit = {
      disbursementId: id,
      spentOn: '2026-03-04',
      kind: 'stamp_duty' as const,
      description: 'Stamp duty on the lease deed',
      amount: 1_250_000_000,
      projectId: project.id,
      receiptDocumentId: receipt.id,
    };
    await api.billing.wip.disbursements.update.mutate(edit);
    const log = await logRows(t, orgId, id);
    expect(log.map((r) => r.action)).toEqual(['disbursement.create', 'disbursement.update']);
    expect(log[0]?.summary).toMatch(
      /^Recorded stamp duty of ₹1,25,00,000.00 paid for Receipts & Co client on /,
    );
    expect(log[1]?.changes).toEqual({
      spentOn: { from: '2026-03-03', to: '2026-03-04' },
      description: { from: 'Stamp duty on the lease', to: 'Stamp duty on the lease deed' },
    });

    // Billed at cost, then locked.
    const { invoiceId } = await api.billing.wip.createInvoice.mutate({
      clientId: client.id,
      disbursementIds: [id],
    });
    expect(invoiceId).toBeTruthy();
    expect(await codeOf(api.billing.wip.disbursements.update.mutate({ ...edit, amount: 1 }))).toMatch(
      /^BAD_REQUEST: This disbursement is on an invoice/,
    );
    expect(await codeOf(api.billing.wip.disbursements.delete.mutate({ disbursementId: id }))).toMatch(
      /^BAD_REQUEST: This disbursement is on an invoice/,
    );
  });

  it('deletes an unbilled one, and refuses another client’s project or receipt', async () => {
    const { firm, api, client, orgId } = await billingFirm(t, 'Mixed & Co');
    const other = await seedClient(t, orgId, { name: 'Another client' });
    const theirProject = await api.projects.create.mutate({ clientId: other.id, name: 'Theirs' });
    const { folderId } = await api.billing.wip.disbursements.receiptFolder.mutate({ clientId: other.id });
    const theirReceipt = await uploadReceipt(firm.owner.token, folderId, 'theirs.png');
    const base = {
      clientId: client.id,
      spentOn: '2026-03-03',
      kind: 'courier' as const,
      description: 'Courier',
      amount: 25_000,
    };
    expect(
      await codeOf(api.billing.wip.disbursements.create.mutate({ ...base, projectId: theirProject.id })),
    ).toBe("BAD_REQUEST: Choose one of the client's projects");
    expect(
      await codeOf(
        api.billing.wip.disbursements.create.mutate({ ...base, receiptDocumentId: theirReceipt.id }),
      ),
    ).toBe("BAD_REQUEST: The receipt must be one of the client's documents");
    const { id } = await api.billing.wip.disbursements.create.mutate(base);
    await api.billing.wip.disbursements.delete.mutate({ disbursementId: id });
    expect(await t.db.$count(disbursements, eq(disbursements.orgId, orgId))).toBe(0);
    expect((await logRows(t, orgId, id)).map((r) => r.action)).toEqual([
      'disbursement.create',
      'disbursement.delete',
    ]);
    // The receipt stays a document of its own client.
    expect(await t.db.$count(documents, eq(documents.id, theirReceipt.id))).toBe(1);
  });

  it('needs the right to upload documents for the Receipts folder', async () => {
    const { firm, api, client } = await billingFirm(t, 'Rights & Co');
    await t.db
      .update(roles)
      .set({ permissions: ['clients.view', 'billing.view', 'billing.manage'] })
      .where(eq(roles.id, firm.roles.staff.id));
    const staff = t.client(firm.staff.token);
    expect(
      await codeOf(staff.billing.wip.disbursements.receiptFolder.mutate({ clientId: client.id })),
    ).toMatch(/^FORBIDDEN/);
    expect(await codeOf(api.billing.wip.disbursements.receiptFolder.mutate({ clientId: client.id }))).toBe(
      'ok',
    );
  });
});
