import { sql } from 'drizzle-orm';
import type { TDb } from '../../src/server/db/client';
import { rowsOf } from '../../src/server/db/sql';
import type { TDemoClient } from './clients';
import type { TDemoFile, TPersonSession } from './session';

// Documents as the firm keeps them: its default folders for every client (KYC, Returns, Working
// papers), KYC and Returns shared with the portal, files uploaded through the upload route (their
// sharing follows their folder), working papers attached to an open task, and the firm vault.

const DEFAULT_FOLDERS = ['KYC', 'Returns', 'Working papers'];
const SHARED = ['KYC', 'Returns'];

// A complete one-page PDF, so the preview shows something.
export function pdf(text: string): Buffer {
  const stream = `BT /F1 14 Tf 20 45 Td (${text.replace(/[()\\]/g, '')}) Tj ET`;
  return Buffer.from(`%PDF-1.4
1 0 obj<</Type/Catalog/Pages 2 0 R>>endobj
2 0 obj<</Type/Pages/Kids[3 0 R]/Count 1>>endobj
3 0 obj<</Type/Page/Parent 2 0 R/MediaBox[0 0 300 100]/Contents 4 0 R/Resources<</Font<</F1 5 0 R>>>>>>endobj
4 0 obj<</Length ${stream.length}>>stream
${stream}
endstream endobj
5 0 obj<</Type/Font/Subtype/Type1/BaseFont/Helvetica>>endobj
trailer<</Root 1 0 R>>
%%EOF`);
}

export const pdfFile = (name: string, text: string): TDemoFile => ({
  name,
  contentType: 'application/pdf',
  bytes: pdf(text),
});
const textFile = (name: string, contentType: string, text: string): TDemoFile => ({
  name,
  contentType,
  bytes: Buffer.from(text),
});

async function folderIds(person: TPersonSession, clientId: string | null) {
  const folders = await person.api.documents.folders({ clientId });
  return new Map(folders.map((f) => [f.name, f.id]));
}

/** The firm's default client folders, set once on the settings screen. */
export async function setDemoDefaultFolders(owner: TPersonSession) {
  await owner.api.documents.setDefaultFolders({ folders: DEFAULT_FOLDERS });
}

/**
 * A client's documents opened for the first time (the default folders appear), KYC and Returns
 * shared, the KYC papers and the working papers uploaded by the client's preparer.
 */
export async function fileClientDocuments(preparer: TPersonSession, client: TDemoClient) {
  await preparer.api.documents.open({ clientId: client.id });
  const ids = await folderIds(preparer, client.id);
  for (const name of SHARED) {
    const folderId = ids.get(name);
    if (folderId) await preparer.api.documents.setFolderVisibility({ folderId, visibleToPortal: true });
  }
  const kyc = ids.get('KYC');
  const papers = ids.get('Working papers');
  if (kyc) {
    await preparer.upload({ folderId: kyc }, pdfFile('PAN card.pdf', `PAN card of ${client.name}`));
    await preparer.upload({ folderId: kyc }, pdfFile('Address proof.pdf', `Address proof of ${client.name}`));
  }
  if (papers) {
    await preparer.upload(
      { folderId: papers },
      textFile(
        'Trial balance.csv',
        'text/csv',
        'account,debit,credit\nSales,,1250000\nPurchases,840000,\nRent,120000,\nBank,290000,\n',
      ),
    );
    await preparer.upload(
      { folderId: papers },
      textFile(
        'Reconciliation notes.txt',
        'text/plain',
        `${client.name}: two purchase invoices missing from GSTR-2B; asked the client.\n`,
      ),
    );
  }
}

/**
 * Late in the replay: the acknowledgement of the client's latest completed project filed in
 * Returns (shared, so the portal shows it), and the working papers attached to its next open task.
 */
export async function fileLatestWork(db: TDb, orgId: string, preparer: TPersonSession, client: TDemoClient) {
  const ids = await folderIds(preparer, client.id);
  const result = await db.execute(sql`
    select
      (select p.name from projects p where p.org_id = ${orgId}::uuid and p.client_id = ${client.id}::uuid
         and p.status = 'COMPLETED' order by p.completed_date desc limit 1) as filed,
      (select t.id from tasks t where t.org_id = ${orgId}::uuid and t.client_id = ${client.id}::uuid
         and t.status <> 'COMPLETED' and t.project_id is not null order by t.due_date, t.id limit 1) as "openTask"`);
  const [latest] = rowsOf<{ filed: string | null; openTask: string | null }>(result);
  const returns = ids.get('Returns');
  if (latest?.filed && returns) {
    await preparer.upload(
      { folderId: returns },
      pdfFile(
        `${latest.filed.replace(' · ', ' - ')} - acknowledgement.pdf`,
        `Acknowledgement: ${latest.filed} - ${client.name}`,
      ),
    );
  }
  const papers = ids.get('Working papers');
  if (latest?.openTask && papers) {
    const files = await preparer.api.documents.contents({ folderId: papers, page: 1, pageSize: 25 });
    for (const doc of files.documents.rows) {
      await preparer.api.tasks.attachments.attach({ taskId: latest.openTask, documentId: doc.id });
    }
  }
}

/** The firm vault: policies kept for the firm, never shown to a client. */
export async function fileVault(owner: TPersonSession) {
  const root = await owner.api.documents.open({ clientId: null });
  const folder = await owner.api.documents.createFolder({ parentId: root.id, name: 'Firm policies' });
  await owner.upload(
    { folderId: folder.id },
    textFile(
      'Leave policy 2026.txt',
      'text/plain',
      'Twenty-one days of earned leave a year; apply on the Leaves page.\n',
    ),
  );
  await owner.upload(
    { folderId: folder.id },
    textFile(
      'Engagement letter template.txt',
      'text/plain',
      'Dear {client},\nThis letter sets out the terms of our engagement...\n',
    ),
  );
}
