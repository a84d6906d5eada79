import fs from 'node:fs';
import path from 'node:path';
import ExcelJS from 'exceljs';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { signInWithCookies, startApp, type TE2eApp } from './support/app';
import { launchBrowser, newPage, screenshot, tempDir } from './support/browser';

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

const faults = (errors: string[]) => errors.filter((e) => !/40[0134]/.test(e));

describe('client import and export in the browser', () => {
  it('imports a CSV with one bad row: preview flags it, progress, report, then the client is in the list', async () => {
    const firm = await app.seedFirm('Kulkarni Associates');
    const api = app.client(firm.owner.token);
    await api.clients.create.mutate({
      code: 'K-001',
      name: 'Existing Client',
      email: 'existing@client.test',
    });

    const dir = tempDir('clients-import-');
    const file = path.join(dir, 'clients.csv');
    fs.writeFileSync(
      file,
      [
        'Client Name,E-mail,Mobile,Tax IDs,Tags',
        'Nair Logistics,nair@logistics.test,+91 98200 11111,PAN:AAAPN1234C,gst',
        'Broken Row,not-an-email,,,',
        'Pillai Foods,pillai@foods.test,,GSTIN:29AAAPP1234C1Z5,',
        '',
      ].join('\r\n'),
    );

    const context = await browser.newContext({
      viewport: { width: 1280, height: 900 },
      acceptDownloads: true,
    });
    await signInWithCookies(context, app, firm.owner);
    const { page, console } = await newPage(context);
    await page.goto(`${app.url}/clients`);
    await page
      .getByRole('table', { name: 'Clients' })
      .getByRole('row', { name: /Existing Client/ })
      .waitFor();

    await page.getByRole('button', { name: 'Import', exact: true }).click();
    const choose = page.getByRole('dialog', { name: 'Import clients' });
    await choose.getByLabel('CSV or Excel file').setInputFiles(file);
    await screenshot(page, 'clients-import-choose');
    await choose.getByRole('button', { name: 'Upload and preview' }).click();

    // The preview: every row with its status, the bad one with the field and the reason.
    const preview = page.getByRole('dialog', { name: 'Import clients.csv' });
    const previewTable = preview.getByRole('table', { name: 'Import preview' });
    await previewTable.getByRole('row', { name: /Broken Row/ }).waitFor();
    const badRow = previewTable.getByRole('row', { name: /Broken Row/ });
    await expect.poll(() => badRow.textContent()).toContain('Error');
    await expect.poll(() => badRow.textContent()).toContain('Email: Enter a valid email address');
    await expect
      .poll(() => previewTable.getByRole('row', { name: /Nair Logistics/ }).textContent())
      .toContain('New');
    await expect
      .poll(() => preview.getByRole('list', { name: 'Rows by status' }).textContent())
      .toMatch(/3 rows.*2 new.*0 duplicates.*1 error/);
    await screenshot(page, 'clients-import-preview');

    // Confirm: the progress bar runs, then the report. Two rows go by in a blink, so a watcher
    // records every progress bar the page shows.
    await page.evaluate(() => {
      const seen: string[] = [];
      (window as unknown as { progress: string[] }).progress = seen;
      new MutationObserver(() => {
        const bar = document.querySelector('[role="progressbar"][aria-label="Import progress"]');
        const text = bar?.getAttribute('aria-valuetext');
        if (text && seen.at(-1) !== text) seen.push(text);
      }).observe(document.body, { subtree: true, childList: true, attributes: true });
    });
    await preview.getByRole('button', { name: 'Import 2 new clients' }).click();
    const report = page.getByRole('dialog', { name: 'Import finished' });
    await report.waitFor();
    await expect
      .poll(() => report.textContent())
      .toContain('imported 2 clients, skipped 0 duplicates, 1 row with errors');
    const progress = await page.evaluate(() => (window as unknown as { progress: string[] }).progress);
    expect(progress[0]).toBe('0 of 3 rows');
    const problems = report.getByRole('table', { name: 'Rows not imported' });
    await problems.getByRole('row', { name: /Broken Row/ }).waitFor();
    await screenshot(page, 'clients-import-report');

    // The skipped rows download as CSV with their reasons.
    const [download] = await Promise.all([
      page.waitForEvent('download'),
      report.getByRole('button', { name: 'Download skipped rows (CSV)' }).click(),
    ]);
    const skipped = fs.readFileSync((await download.path()) as string, 'utf8');
    expect(skipped).toContain('Broken Row');
    expect(skipped).toContain('Email: Enter a valid email address');

    await report.getByRole('button', { name: 'Done' }).click();
    const table = page.getByRole('table', { name: 'Clients' });
    await table.getByRole('row', { name: /Nair Logistics/ }).waitFor();
    await table.getByRole('row', { name: /Pillai Foods/ }).waitFor();
    await expect.poll(() => table.getByRole('row', { name: /Broken Row/ }).count()).toBe(0);

    // Export with a search: the file has the matching rows, in the import's columns.
    await page.getByLabel('Search clients').fill('Nair');
    await page.waitForURL(/search=Nair/);
    await expect.poll(() => table.getByRole('row').count()).toBe(2);
    const [exported] = await Promise.all([
      page.waitForEvent('download'),
      (async () => {
        await page.getByRole('button', { name: 'Export' }).click();
        await page.getByRole('menuitem', { name: 'Export CSV' }).click();
      })(),
    ]);
    expect(exported.suggestedFilename()).toMatch(/^clients-\d{4}-\d{2}-\d{2}\.csv$/);
    const csv = fs.readFileSync((await exported.path()) as string, 'utf8').replace(/^\uFEFF/, '');
    const lines = csv.trim().split('\r\n');
    expect(lines[0]).toBe(
      'Code,Name,Type,Email,Phone,Address line 1,Address line 2,City,Region,Postal code,Country,Tax IDs,Group,Tags,Status,Notes,GST scheme,Turnover band,CIN,LLPIN,Tax audit,Transfer pricing,Collects TCS',
    );
    expect(lines).toHaveLength(2);
    expect(lines[1]).toContain('Nair Logistics');
    expect(lines[1]).toContain('PAN:AAAPN1234C');
    await page.getByText('Export started: your browser saves the file').waitFor();

    // The same search as an Excel workbook.
    await page.getByRole('button', { name: 'Export' }).click();
    await screenshot(page, 'clients-export-menu');
    const [workbook] = await Promise.all([
      page.waitForEvent('download'),
      page.getByRole('menuitem', { name: 'Export Excel' }).click(),
    ]);
    expect(workbook.suggestedFilename()).toMatch(/^clients-\d{4}-\d{2}-\d{2}\.xlsx$/);
    const wb = new ExcelJS.Workbook();
    await wb.xlsx.readFile((await workbook.path()) as string);
    const sheet = wb.worksheets[0];
    expect(sheet?.rowCount).toBe(2);
    expect(sheet?.getRow(2).getCell(2).value).toBe('Nair Logistics');
    expect(faults(console.errors)).toEqual([]);
    await context.close();
  });

  it('imports an Excel workbook: the preview shows its rows, the bad one flagged', async () => {
    const firm = await app.seedFirm('Excel Associates');
    const wb = new ExcelJS.Workbook();
    const sheet = wb.addWorksheet('Clients');
    sheet.addRow(['Client Name', 'E-mail', 'Mobile']);
    sheet.addRow([
      'Menon Textiles',
      { text: 'menon@textiles.test', hyperlink: 'mailto:menon@textiles.test' },
      9876543210,
    ]);
    sheet.addRow(['Broken Excel Row', 'not-an-email', null]);
    const file = path.join(tempDir('clients-import-xlsx-'), 'clients.xlsx');
    await wb.xlsx.writeFile(file);

    const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
    await signInWithCookies(context, app, firm.owner);
    const { page, console } = await newPage(context);
    await page.goto(`${app.url}/clients`);
    await page.getByRole('button', { name: 'Import', exact: true }).click();
    const choose = page.getByRole('dialog', { name: 'Import clients' });
    await choose.getByLabel('CSV or Excel file').setInputFiles(file);
    await choose.getByRole('button', { name: 'Upload and preview' }).click();

    const preview = page.getByRole('dialog', { name: 'Import clients.xlsx' });
    const previewTable = preview.getByRole('table', { name: 'Import preview' });
    const badRow = previewTable.getByRole('row', { name: /Broken Excel Row/ });
    await badRow.waitFor();
    await expect.poll(() => badRow.textContent()).toContain('Email: Enter a valid email address');
    const good = previewTable.getByRole('row', { name: /Menon Textiles/ });
    await expect.poll(() => good.textContent()).toContain('New');
    // The email came from a mailto link cell.
    await expect.poll(() => good.textContent()).toContain('menon@textiles.test');
    await expect
      .poll(() => preview.getByRole('list', { name: 'Rows by status' }).textContent())
      .toMatch(/2 rows.*1 new.*0 duplicates.*1 error/);
    await screenshot(page, 'clients-import-xlsx-preview');
    expect(faults(console.errors)).toEqual([]);
    await context.close();
  });
});
