import { eq } from 'drizzle-orm';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CATALOGUE_VERSION } from '../../src/domain/statutory/catalogue';
import { orgs, systemLog } from '../../src/server/db/schema';
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

describe('a new statutory catalogue release', () => {
  it('a partner reviews what the new version changes for the firm and accepts it', async () => {
    // A firm created before the release: on the first version.
    const firm = await app.seedFirm('Mehta & Desai, Chartered Accountants');
    await app.db
      .update(orgs)
      .set({ country: 'IN', timeZone: 'Asia/Kolkata', currency: 'INR', fiscalYearStartMonth: 4 })
      .where(eq(orgs.id, firm.org.id));
    const api = app.client(firm.owner.token);
    const client = await api.clients.create.mutate({
      code: 'C00001',
      name: 'Vile Parle Pharma',
      type: 'company',
    });
    await api.statutory.setRegistrations.mutate({
      clientId: client.id,
      data: { pan: 'AAPFU0939F', tan: 'MUMA12345B' },
    });
    const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
    await signInWithCookies(context, app, firm.owner);
    const { page, console } = await newPage(context);

    await page.goto(`${app.url}/admin/statutory`);
    await page.getByText(`Version ${CATALOGUE_VERSION} of the statutory catalogue is available.`).waitFor();
    await page.getByRole('button', { name: 'Review the changes' }).click();
    const dialog = page.getByRole('dialog', { name: `Statutory catalogue ${CATALOGUE_VERSION}` });
    const changes = dialog.getByRole('table', { name: 'Filings the new version changes' });
    const added = changes.getByRole('row', { name: /TDS\/TCS deposit \(monthly\)/ });
    await added.waitFor();
    await expect.poll(() => added.textContent()).toContain('New filing');
    // One client of the firm must make it; no service is linked to it yet.
    await expect.poll(() => added.getByRole('cell').nth(1).textContent()).toBe('0 → 1');
    await expect.poll(() => added.textContent()).toContain('None linked yet');
    await dialog.getByText('No open project’s due date moves.').waitFor();
    await screenshot(page, 'statutory-catalogue-preview');

    await dialog.getByRole('button', { name: `Accept version ${CATALOGUE_VERSION}` }).click();
    await page.getByRole('alertdialog').getByRole('button', { name: 'Accept' }).click();
    await page.getByText(`Your firm now uses version ${CATALOGUE_VERSION}`).waitFor();
    await page.getByText(`Catalogue (version ${CATALOGUE_VERSION})`).waitFor();
    await expect.poll(() => page.getByRole('button', { name: 'Review the changes' }).count()).toBe(0);
    await page
      .getByRole('table', { name: 'Statutory filings' })
      .getByText('TDS/TCS deposit (monthly)')
      .waitFor();
    await screenshot(page, 'statutory-catalogue-accepted');

    const [org] = await app.db.select().from(orgs).where(eq(orgs.id, firm.org.id));
    expect(org?.statutoryCatalogueVersion).toBe(CATALOGUE_VERSION);
    const logged = await app.db.select().from(systemLog).where(eq(systemLog.orgId, firm.org.id));
    expect(logged.filter((l) => l.action === 'statutory_catalogue.accept')).toHaveLength(1);
    expect(console.errors).toEqual([]);
    await context.close();
  });
});
