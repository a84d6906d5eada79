import fs from 'node:fs';
import { eq } from 'drizzle-orm';
import JSZip from 'jszip';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { notifications } from '../../src/server/db/schema';
import { randomFile, sha256, uploadFile } from '../../src/server/test/files';
import { signInWithCookies, startApp, type TE2eApp } from './support/app';
import { launchBrowser, newPage, screenshot } from './support/browser';

let app: TE2eApp;
let browser: Browser;
beforeAll(async () => {
  // The export is built by the job queue, as in production.
  app = await startApp({ JOBS_ENABLED: 'true', JOBS_POLL_MS: '100' });
  browser = await launchBrowser();
});
afterAll(async () => {
  await browser?.close();
  await app?.close();
});

describe('the firm’s data leaves by signed links the browser streams', () => {
  it('the owner exports the whole firm and downloads a large document and the zip', async () => {
    const firm = await app.seedFirm('Kapoor & Partners');
    const api = app.client(firm.owner.token);
    const client = await api.clients.create.mutate({ code: 'K-1', name: 'Kapoor Textiles' });
    const root = await api.documents.open.mutate({ clientId: client.id });
    const big = randomFile(4 * 1024 * 1024);
    const up = await uploadFile(app, firm.owner.token, root.id, 'scan.bin', big);
    expect(up.status).toBe(201);

    const context = await browser.newContext({
      viewport: { width: 1280, height: 860 },
      acceptDownloads: true,
    });
    await signInWithCookies(context, app, firm.owner);
    const { page, console } = await newPage(context);

    // A large document: the browser fetches it itself by a short-lived signed link, to disk.
    await page.goto(`${app.url}/clients/${client.id}/documents`);
    await page.getByRole('button', { name: 'Actions for scan.bin' }).click();
    const [file] = await Promise.all([
      page.waitForEvent('download'),
      page.getByRole('menuitem', { name: 'Download' }).click(),
    ]);
    expect(file.url()).toMatch(new RegExp(`/api/documents/${up.body.id}/download\\?link=`));
    expect(file.suggestedFilename()).toBe('scan.bin');
    expect(sha256(fs.readFileSync((await file.path()) as string))).toBe(sha256(big));

    // The whole firm, from Firm settings: started, prepared with progress, then downloaded.
    await page.goto(`${app.url}/admin/settings/org#export`);
    const card = page.locator('#export');
    await card.getByRole('button', { name: 'Export all data' }).click();
    const dialog = page.getByRole('dialog', { name: 'Export all the firm’s data' });
    await dialog.getByRole('checkbox', { name: 'Include the vault’s passwords' }).click();
    await dialog.getByLabel('Passphrase for the vault file').waitFor();
    await screenshot(page, 'firm-export-dialog');
    await dialog.getByRole('checkbox', { name: 'Include the vault’s passwords' }).click();
    await dialog.getByRole('button', { name: 'Start export' }).click();
    await page.getByText('Export started: we will notify you when it is ready').waitFor();
    const row = page.getByTestId('firm-export').first();
    await expect.poll(() => row.getByText('Ready').count(), { timeout: 20_000 }).toBe(1);
    await screenshot(page, 'firm-export-ready');

    const [zipFile] = await Promise.all([
      page.waitForEvent('download'),
      row.getByRole('button', { name: 'Download' }).click(),
    ]);
    expect(zipFile.url()).toMatch(/\/api\/firm-exports\/[0-9a-f-]+\/download\?link=/);
    expect(zipFile.suggestedFilename()).toMatch(/^firm-export-\d{4}-\d{2}-\d{2}\.zip$/);
    const zip = await JSZip.loadAsync(fs.readFileSync((await zipFile.path()) as string));
    expect(Object.keys(zip.files)).toEqual(
      expect.arrayContaining([
        'clients.csv',
        'json/clients.json',
        'manifest.json',
        'documents/Kapoor Textiles (K-1)/scan.bin',
      ]),
    );
    expect(await zip.file('clients.csv')?.async('string')).toContain('Kapoor Textiles');

    // Announced to the owner (in the app and by mail).
    const notes = await app.db
      .select({ title: notifications.title })
      .from(notifications)
      .where(eq(notifications.memberId, firm.owner.id));
    expect(notes.map((n) => n.title)).toContain('Your firm’s export is ready');
    expect(console.errors).toEqual([]);
    await context.close();
  });
});
