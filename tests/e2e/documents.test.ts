import { and, eq } from 'drizzle-orm';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { systemLog } from '../../src/server/db/schema';
import { seedPortalUser } from '../../src/server/test/portal';
import { signInWithCookies, startApp, type TE2eApp } from './support/app';
import { launchBrowser, newPage, screenshot } from './support/browser';

let app: TE2eApp;
let browser: Browser;
beforeAll(async () => {
  app = await startApp();
  browser = await launchBrowser();
});
afterAll(async () => {
  await browser?.close();
  await app?.close();
});

// A complete one-page PDF, small enough to keep inline.
const PDF = `%PDF-1.4
1 0 obj<</Type/Catalog/Pages 2 0 R>>endobj
2 0 obj<</Type/Pages/Kids[3 0 R]/Count 1>>endobj
3 0 obj<</Type/Page/Parent 2 0 R/MediaBox[0 0 200 100]/Contents 4 0 R/Resources<</Font<</F1 5 0 R>>>>>>endobj
4 0 obj<</Length 44>>stream
BT /F1 18 Tf 20 40 Td (Tax return) Tj ET
endstream endobj
5 0 obj<</Type/Font/Subtype/Type1/BaseFont/Helvetica>>endobj
trailer<</Root 1 0 R>>
%%EOF`;

describe('documents in the browser', () => {
  it('uploads three files by drag-and-drop with progress, previews a PDF, moves a file, deletes and restores', async () => {
    const firm = await app.seedFirm('Documents & Co');
    const api = app.client(firm.owner.token);
    const client = await api.clients.create.mutate({ code: 'D-1', name: 'Desai Exports' });
    const root = await api.documents.open.mutate({ clientId: client.id });
    await api.documents.createFolder.mutate({ parentId: root.id, name: 'KYC' });

    const context = await browser.newContext({ viewport: { width: 1280, height: 800 } });
    await signInWithCookies(context, app, firm.owner);
    const { page } = await newPage(context);
    await page.goto(`${app.url}/clients/${client.id}`);
    await page
      .getByRole('navigation', { name: 'Client sections' })
      .getByRole('link', { name: 'Documents' })
      .click();
    await page.waitForURL(`${app.url}/clients/${client.id}/documents`);
    const table = page.getByRole('table', { name: 'Contents of Documents' });
    await table.getByRole('link', { name: 'KYC' }).waitFor();

    // Three files dropped at once, each with its own progress bar.
    const dataTransfer = await page.evaluateHandle((pdf) => {
      const dt = new DataTransfer();
      dt.items.add(new File([pdf], 'return.pdf', { type: 'application/pdf' }));
      dt.items.add(new File(['opening balance 100'], 'notes.txt', { type: 'text/plain' }));
      dt.items.add(new File([new Uint8Array(300_000)], 'ledger.bin'));
      return dt;
    }, PDF);
    await page.getByTestId('documents-drop-zone').dispatchEvent('drop', { dataTransfer });
    const uploads = page.getByRole('region', { name: 'Uploads' });
    await expect.poll(() => uploads.getByRole('progressbar').count()).toBe(3);
    await expect
      .poll(() => uploads.locator('[data-upload-status="done"]').count(), { timeout: 20_000 })
      .toBe(3);
    for (const name of ['return.pdf', 'notes.txt', 'ledger.bin']) {
      await expect
        .poll(() =>
          uploads.getByRole('progressbar', { name: `Upload of ${name}` }).getAttribute('aria-valuenow'),
        )
        .toBe('100');
      await table.getByRole('row', { name: new RegExp(name.replace('.', '\\.')) }).waitFor();
    }
    await screenshot(page, 'documents-uploaded');

    // Preview the PDF: the frame opens the sandboxed preview route by a short-lived signed link.
    await page.getByRole('button', { name: 'Actions for return.pdf' }).click();
    await page.getByRole('menuitem', { name: 'Preview' }).click();
    const preview = page.getByRole('dialog', { name: 'return.pdf' });
    const frame = preview.locator('iframe[title="Preview of return.pdf"]');
    await frame.waitFor();
    await expect
      .poll(() => frame.getAttribute('src'))
      .toMatch(/^\/api\/documents\/[0-9a-f-]+\/preview\?link=/);
    await screenshot(page, 'documents-preview');
    await page.keyboard.press('Escape');
    await preview.waitFor({ state: 'hidden' });

    // Move notes.txt into KYC.
    await page.getByRole('button', { name: 'Actions for notes.txt' }).click();
    await page.getByRole('menuitem', { name: 'Move' }).click();
    const move = page.getByRole('dialog', { name: 'Move notes.txt' });
    await move.getByRole('radio', { name: 'KYC' }).click();
    await screenshot(page, 'documents-move');
    await move.getByRole('button', { name: 'Move here' }).click();
    await page.getByText('Moved notes.txt').waitFor();
    await expect.poll(() => table.getByRole('row', { name: /notes\.txt/ }).count()).toBe(0);
    await table.getByRole('link', { name: 'KYC' }).click();
    await page.waitForURL(new RegExp(`/clients/${client.id}/documents/[0-9a-f-]{36}$`));
    const kyc = page.getByRole('table', { name: 'Contents of KYC' });
    await kyc.getByRole('row', { name: /notes\.txt/ }).waitFor();
    await page
      .getByRole('navigation', { name: 'Folder path' })
      .getByRole('link', { name: 'Documents' })
      .click();
    await page.waitForURL(`${app.url}/clients/${client.id}/documents`);

    // Delete to the trash and restore.
    await page.getByRole('button', { name: 'Actions for ledger.bin' }).click();
    await page.getByRole('menuitem', { name: 'Delete' }).click();
    await page.getByRole('alertdialog').getByRole('button', { name: 'Delete' }).click();
    await page.getByText('Moved ledger.bin to the trash').waitFor();
    await expect.poll(() => table.getByRole('row', { name: /ledger\.bin/ }).count()).toBe(0);
    await page.getByRole('button', { name: 'Trash' }).click();
    const trash = page.getByRole('region', { name: 'Trash' });
    await trash.getByText('ledger.bin').waitFor();
    await screenshot(page, 'documents-trash');
    await trash.getByRole('button', { name: 'Restore ledger.bin' }).click();
    await page.getByText('Restored').waitFor();
    await page.getByRole('button', { name: 'Trash' }).click();
    await table.getByRole('row', { name: /ledger\.bin/ }).waitFor();

    const actions = (
      await app.db
        .select({ action: systemLog.action })
        .from(systemLog)
        .where(and(eq(systemLog.orgId, firm.org.id)))
    ).map((r) => r.action);
    for (const action of [
      'documents.file.upload',
      'documents.file.preview',
      'documents.file.move',
      'documents.file.delete',
      'documents.file.restore',
    ]) {
      expect(actions, action).toContain(action);
    }
    expect(actions.filter((a) => a === 'documents.file.upload')).toHaveLength(3);
    // The firm's own documents from the sidebar, and the default folders on the firm settings.
    await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Documents' }).click();
    await page.waitForURL(`${app.url}/vault/documents`);
    await page.getByRole('table', { name: 'Contents of Vault' }).waitFor();
    await page.goto(`${app.url}/admin/settings/org#documents`);
    await page.getByRole('textbox', { name: 'Default folders' }).fill('KYC\nReturns/2026-27');
    await page.getByRole('button', { name: 'Save default folders' }).click();
    await page.getByText('Default folders saved').waitFor();
    await screenshot(page, 'documents-default-folders');
    expect(await api.documents.defaultFolders.query()).toEqual({ folders: ['KYC', 'Returns/2026-27'] });
    await context.close();
  });

  it('says what the client sees: a shared upload shares its folder, an internal folder hides its shared files, a share asks before sharing folders', async () => {
    const firm = await app.seedFirm('Sharing & Co');
    const api = app.client(firm.owner.token);
    const client = await api.clients.create.mutate({ code: 'S-1', name: 'Iyer Textiles' });
    const root = await api.documents.open.mutate({ clientId: client.id });
    const form16 = await api.documents.createFolder.mutate({ parentId: root.id, name: 'Form 16' });
    const returns = await api.documents.createFolder.mutate({ parentId: root.id, name: 'Returns' });
    const year = await api.documents.createFolder.mutate({ parentId: returns.id, name: '2025-26' });
    await api.documents.createFolder.mutate({ parentId: root.id, name: 'Working papers' });
    const portal = await seedPortalUser(app, { orgId: firm.org.id, clientIds: [client.id] });
    const portalSees = async (folderId: string) =>
      portal.client.clientPortalDocuments.folder.query({ clientId: client.id, folderId }).then(
        (f) => f.documents.rows.map((d) => d.name),
        () => null,
      );

    const context = await browser.newContext({ viewport: { width: 1280, height: 800 } });
    await signInWithCookies(context, app, firm.owner);
    const { page } = await newPage(context);
    await page.goto(`${app.url}/clients/${client.id}/documents/${form16.id}`);
    const note = page.getByRole('status', { name: 'Portal visibility' });
    await note.getByText('This folder is internal: the client does not see it or anything in it.').waitFor();

    // Uploading shared into the internal folder says beforehand that the folder is shared too.
    const share = page.getByRole('checkbox', { name: 'Share uploads with the portal' });
    expect(await share.getAttribute('aria-checked')).toBe('false');
    await share.click();
    await page
      .getByText(
        'Uploading here also shares the folder “Form 16” with the portal, so the client sees the files.',
      )
      .waitFor();
    await screenshot(page, 'documents-share-upload');
    await page.getByTestId('documents-file-input').setInputFiles({
      name: 'Form-16.pdf',
      mimeType: 'application/pdf',
      buffer: Buffer.from(PDF),
    });
    const table = page.getByRole('table', { name: 'Contents of Form 16' });
    const fileRow = table.getByRole('row', { name: /Form-16\.pdf/ });
    await fileRow.getByText('Shared', { exact: true }).waitFor();
    await note.getByText('The client sees this folder in the portal, with what is shared in it.').waitFor();
    await expect.poll(() => portalSees(form16.id)).toEqual(['Form-16.pdf']);

    // Made internal, the folder hides the file, and the file says so rather than "Shared".
    await page
      .getByRole('navigation', { name: 'Folder path' })
      .getByRole('link', { name: 'Documents' })
      .click();
    const top = page.getByRole('table', { name: 'Contents of Documents' });
    await top
      .getByRole('row', { name: /Form 16/ })
      .getByText('Shared', { exact: true })
      .waitFor();
    await page.getByRole('button', { name: 'Actions for Form 16' }).click();
    await page.getByRole('menuitem', { name: 'Make internal' }).click();
    await page.getByText('Form 16 is internal now: the client no longer sees it or anything in it').waitFor();
    await top
      .getByRole('row', { name: /Form 16/ })
      .getByText('Internal', { exact: true })
      .waitFor();
    await top.getByRole('link', { name: 'Form 16' }).click();
    await fileRow.getByText('Shared · hidden by folder').waitFor();
    await note.getByText('This folder is internal: the client does not see it or anything in it.').waitFor();
    expect(await portalSees(form16.id)).toBeNull();
    await screenshot(page, 'documents-hidden-by-folder');
    await note.getByRole('button', { name: 'Share with the portal' }).click();
    await page.getByText('Shared Form 16 with the portal').waitFor();
    await fileRow.getByText('Shared', { exact: true }).waitFor();
    await expect.poll(() => portalSees(form16.id)).toEqual(['Form-16.pdf']);

    // Moving the shared file into an internal folder says beforehand that the client loses it.
    await page.getByRole('button', { name: 'Actions for Form-16.pdf' }).click();
    await page.getByRole('menuitem', { name: 'Move' }).click();
    const move = page.getByRole('dialog', { name: 'Move Form-16.pdf' });
    await move.getByRole('radio', { name: 'Working papers' }).click();
    await move
      .getByText('In “Working papers” the client will not see it: “Working papers” is internal.')
      .waitFor();
    await move.getByRole('radio', { name: 'Documents' }).click();
    await move.getByText('In “Documents” the client sees it.').waitFor();
    await page.keyboard.press('Escape');
    await move.waitFor({ state: 'hidden' });

    // Sharing a file deep in internal folders asks first, naming the folders it shares too.
    await page.goto(`${app.url}/clients/${client.id}/documents/${year.id}`);
    await page.getByTestId('documents-file-input').setInputFiles({
      name: 'itr-v.pdf',
      mimeType: 'application/pdf',
      buffer: Buffer.from(PDF),
    });
    const yearTable = page.getByRole('table', { name: 'Contents of 2025-26' });
    await yearTable
      .getByRole('row', { name: /itr-v\.pdf/ })
      .getByText('Internal', { exact: true })
      .waitFor();
    await page.getByRole('button', { name: 'Actions for itr-v.pdf' }).click();
    await page.getByRole('menuitem', { name: 'Share with the portal' }).click();
    const ask = page.getByRole('alertdialog', { name: 'Share itr-v.pdf with the portal?' });
    await ask.getByText(/through the folders “Returns” and “2025-26”, which are internal/).waitFor();
    await screenshot(page, 'documents-share-confirm');
    await ask.getByRole('button', { name: 'Share it and the folders' }).click();
    await page
      .getByText('Shared itr-v.pdf and the folders “Returns” and “2025-26” with the portal')
      .waitFor();
    await yearTable
      .getByRole('row', { name: /itr-v\.pdf/ })
      .getByText('Shared', { exact: true })
      .waitFor();
    await expect.poll(() => portalSees(year.id)).toEqual(['itr-v.pdf']);
    await context.close();
  });
});
