import { eq } from 'drizzle-orm';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { orgs, projects } from '../../src/server/db/schema';
import { seedPortalUser } from '../../src/server/test/portal';
import { seedPortalClient } from '../../src/server/test/portal-world';
import { signInToPortal, signInWithCookies, startApp, type TE2eApp } from './support/app';
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

// A browser set up the American way on the US west coast: what the firm's people and clients see
// must follow the firm (India), not the machine they happen to use.
const AMERICAN_BROWSER = { locale: 'en-US', timezoneId: 'America/Los_Angeles' } as const;
// 20:00 UTC on 7 Oct is 01:30 on 8 Oct in Kolkata, and still 7 Oct in Los Angeles.
const COMPLETED_AT = new Date(Date.UTC(2026, 9, 7, 20, 0));

describe('dates and numbers follow the firm', () => {
  it('shows an Indian firm’s dates and amounts its way on staff screens and in the portal', async () => {
    const firm = await app.seedFirm('Sharma & Associates');
    await app.db
      .update(orgs)
      .set({ country: 'IN', timeZone: 'Asia/Kolkata', currency: 'INR' })
      .where(eq(orgs.id, firm.org.id));
    const own = await seedPortalClient(app, firm, 'Mehta Traders');
    await app.db
      .update(projects)
      .set({
        periodKey: '2026-09',
        periodStart: '2026-09-01',
        periodEnd: '2026-09-30',
        dueDate: '2026-11-24',
        status: 'COMPLETED',
        completedDate: COMPLETED_AT,
      })
      .where(eq(projects.id, own.project.id));
    await own.api.services.create.mutate({
      name: 'Statutory audit',
      code: 'AUDIT',
      frequency: 'yearly',
      defaultFee: '150000',
    });

    // Staff: the project page, the task list and the service catalogue.
    const staff = await browser.newContext({ viewport: { width: 1280, height: 900 }, ...AMERICAN_BROWSER });
    await signInWithCookies(staff, app, firm.owner);
    const { page, console } = await newPage(staff);
    await page.goto(`${app.url}/projects/${own.project.id}`);
    const main = page.getByRole('main');
    await main.getByText('Mehta Traders annual accounts').first().waitFor();
    await expect.poll(() => main.textContent()).toContain('24 Nov 2026');
    const staffText = (await main.textContent()) ?? '';
    expect(staffText).toContain('8 Oct 2026');
    expect(staffText).toMatch(/1\s?–\s?30 Sept? 2026/);
    expect(staffText).not.toMatch(/\b11\/24\/2026\b|\b10\/[78]\/2026\b|Nov 24, 2026|Oct 7/);
    await screenshot(page, 'locale-staff-project');

    await page.goto(`${app.url}/tasks`);
    const row = page.getByRole('row', { name: /Send bank statements for Mehta Traders/ });
    await expect.poll(() => row.textContent()).toContain('31 Jan 2099');

    await page.goto(`${app.url}/admin/services`);
    const service = page.getByRole('row', { name: /Statutory audit/ });
    // Lakh grouping and the rupee: the firm's currency, as India writes it.
    await expect.poll(() => service.textContent()).toContain('₹1,50,000.00');
    await screenshot(page, 'locale-staff-services');

    // The firm moves to the US: the same screens follow its settings.
    await app.db
      .update(orgs)
      .set({ country: 'US', timeZone: 'America/New_York', currency: 'USD' })
      .where(eq(orgs.id, firm.org.id));
    await page.goto(`${app.url}/projects/${own.project.id}`);
    await expect.poll(() => main.textContent()).toContain('Nov 24, 2026');
    await app.db
      .update(orgs)
      .set({ country: 'IN', timeZone: 'Asia/Kolkata', currency: 'INR' })
      .where(eq(orgs.id, firm.org.id));
    expect(console.errors).toEqual([]);

    // The portal: the firm's client reads the firm's dates, on their own American phone.
    const portalUser = await seedPortalUser(app, {
      orgId: firm.org.id,
      clientIds: [own.client.id],
      name: 'Priya Mehta',
    });
    const phone = await browser.newContext({ viewport: { width: 375, height: 800 }, ...AMERICAN_BROWSER });
    await signInToPortal(phone, app, portalUser.token);
    const portal = await newPage(phone);
    await portal.page.goto(`${app.url}/clientportal/${own.client.id}/projects`);
    const item = portal.page.getByRole('listitem').filter({ hasText: 'Mehta Traders annual accounts' });
    await expect
      .poll(async () => ((await item.textContent()) ?? '').replace(/\s/g, ' '))
      .toMatch(/1 ?– ?30 Sept? 2026 · Completed 8 Oct 2026/);
    expect(await item.textContent()).not.toMatch(/\d+\/\d+\/\d{4}/);
    await screenshot(portal.page, 'locale-portal-projects');

    await portal.page.goto(`${app.url}/clientportal/${own.client.id}/tasks`);
    await expect.poll(() => portal.page.getByRole('main').textContent()).toContain('Due 31 Jan 2099');
    expect(portal.console.errors).toEqual([]);
  });
});
