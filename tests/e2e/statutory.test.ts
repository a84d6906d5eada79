import { and, eq } from 'drizzle-orm';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { addDays } from '../../src/domain/days';
import { createFormatter } from '../../src/domain/format';
import { orgs, projects, tasks } from '../../src/server/db/schema';
import { seedPortalUser } from '../../src/server/test/portal';
import { signInToPortal, signInWithCookies, startApp, type TE2eApp } from './support/app';
import { launchBrowser, newPage, screenshot } from './support/browser';
import { pickDay } from './support/date-picker';

let app: TE2eApp;
let browser: Browser;

beforeAll(async () => {
  app = await startApp();
  browser = await launchBrowser();
});

/** A Mumbai firm of its own for each attempt: CI runs a failed browser test once more, on the same server. */
async function indianFirm() {
  const firm = await app.seedFirm('Shah & Kapadia, Chartered Accountants');
  await app.db
    .update(orgs)
    .set({ country: 'IN', timeZone: 'Asia/Kolkata', currency: 'INR', fiscalYearStartMonth: 4 })
    .where(eq(orgs.id, firm.org.id));
  return firm;
}
afterAll(async () => {
  await browser?.close();
  await app?.close();
});

describe('the statutory calendar', () => {
  it('a partner sees a client’s filings and gaps, records a Maharashtra extension of GSTR-3B, previews it and applies it', async () => {
    const firm = await indianFirm();
    const api = app.client(firm.owner.token);
    const template = await api.projectTemplates.create.mutate({ name: 'GSTR-3B' });
    await api.projectTemplates.blueprints.add.mutate({
      templateId: template.id,
      title: 'Reconcile ITC',
      dueOffsetDays: 12,
    });
    const service = await api.services.create.mutate({
      name: 'GSTR-3B monthly',
      code: '3B-M',
      frequency: 'monthly',
      projectTemplateId: template.id,
      statutoryFilingCode: 'IN.GSTR3B.M',
    });
    const gstr1 = await api.services.create.mutate({
      name: 'GSTR-1 monthly',
      code: 'G1-M',
      frequency: 'monthly',
      projectTemplateId: template.id,
      statutoryFilingCode: 'IN.GSTR1.M',
    });
    const mumbai = await api.clients.create.mutate({
      code: 'C00001',
      name: 'Andheri Textiles',
      type: 'partnership',
      email: 'accounts@andheri-textiles.example.test',
    });
    const delhi = await api.clients.create.mutate({
      code: 'C00002',
      name: 'Karol Bagh Traders',
      type: 'proprietor',
    });
    await api.statutory.setRegistrations.mutate({
      clientId: mumbai.id,
      data: { gstin: '27AAPFU0939F1ZV', gstScheme: 'regular', pan: 'AAPFU0939F' },
    });
    await api.statutory.setRegistrations.mutate({
      clientId: delhi.id,
      data: { gstin: '07AAACI1681G1ZR', gstScheme: 'regular' },
    });
    for (const c of [mumbai, delhi])
      await api.engagements.create.mutate({ clientId: c.id, serviceId: service.id, startDate: '2024-04-01' });
    const made = await app.db
      .select()
      .from(projects)
      .where(and(eq(projects.orgId, firm.org.id), eq(projects.clientId, mumbai.id)))
      .orderBy(projects.periodStart);
    const target = made[0];
    if (!target?.dueDate || !target.periodKey) throw new Error('no project generated');
    const newDue = addDays(target.dueDate, 7);
    const format = createFormatter({ country: 'IN', timeZone: 'Asia/Kolkata', currency: 'INR' });
    const [delhiProject] = await app.db
      .select()
      .from(projects)
      .where(and(eq(projects.clientId, delhi.id), eq(projects.periodKey, target.periodKey)));

    // Its digital signature certificate, in the expiry register (an expiry reminder).
    await api.reminders.create.mutate({
      type: 'expiry',
      title: 'DSC renewal',
      message: 'Renew the partner’s DSC before it lapses.',
      clientId: mumbai.id,
      channels: ['email'],
      itemName: 'Class 3 DSC (Ramesh Shah)',
      expiryDate: addDays(target.dueDate, 120),
      daysBefore: 30,
    });
    const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
    await signInWithCookies(context, app, firm.owner);
    const { page, console } = await newPage(context);

    // The client's profile: its registrations, what it must file, engaged or a gap.
    await page.goto(`${app.url}/clients/${mumbai.id}`);
    // The registrations card (the GSTIN is also among the tax identifiers, once that card has loaded).
    await page.getByRole('definition').filter({ hasText: '27AAPFU0939F1ZV · Maharashtra (27)' }).waitFor();
    const filings = page.getByRole('table', { name: 'Filings this client must make' });
    await filings
      .getByRole('row', { name: /GSTR-3B \(monthly\)/ })
      .getByText('GSTR-3B monthly')
      .waitFor();
    await filings
      .getByRole('row', { name: /GSTR-1 \(monthly\)/ })
      .getByText('Gap')
      .waitFor();
    await page.getByText('Class 3 DSC (Ramesh Shah)').waitFor();
    await screenshot(page, 'statutory-client-filings');

    // The gaps report: both clients owe GSTR-1; engage them in bulk.
    await page.goto(`${app.url}/reports/statutory/gaps?filingCode=IN.GSTR1.M`);
    const gaps = page.getByRole('table', { name: 'Statutory gaps' });
    await gaps.getByRole('row', { name: /Karol Bagh Traders/ }).waitFor();
    await gaps.getByRole('checkbox', { name: 'Select Andheri Textiles: GSTR-1 (monthly)' }).check();
    await gaps.getByRole('checkbox', { name: 'Select Karol Bagh Traders: GSTR-1 (monthly)' }).check();
    await screenshot(page, 'statutory-gaps');
    await page.getByRole('button', { name: 'Engage for these' }).click();
    await page.getByText('2 engagements added').waitFor();
    await page.getByText(/^No gaps/).waitFor();
    const engaged = await api.engagements.listForClient.query({ clientId: mumbai.id });
    expect(engaged.rows.map((r) => r.service.id).sort()).toEqual([service.id, gstr1.id].sort());

    // Record the extension: GSTR-3B for the period, Maharashtra only.
    await page.goto(`${app.url}/admin/statutory`);
    await page.getByRole('button', { name: 'Record an extension' }).click();
    const dialog = page.getByRole('dialog', { name: 'Record an extension' });
    await dialog.getByRole('combobox', { name: 'Period' }).click();
    await page.getByRole('option', { name: new RegExp(`^${target.name.split(' · ')[1]} · due`) }).click();
    await dialog.getByRole('combobox', { name: /^For/ }).click();
    await page.getByRole('option', { name: 'Maharashtra (27)' }).click();
    await pickDay(page, dialog, 'New due date', newDue);
    await dialog.getByLabel(/^Note/).fill('CBIC notification: GSTR-3B extended in Maharashtra');
    await dialog.getByRole('button', { name: 'Record and preview' }).click();

    // The preview: the Mumbai client's project moves, the Delhi client's does not.
    const preview = page.getByRole('dialog', { name: /^Extension of GSTR-3B \(monthly\)/ });
    const moving = preview.getByRole('table', { name: 'Projects that move' });
    await moving.getByRole('row', { name: /Andheri Textiles/ }).waitFor();
    await expect.poll(() => moving.getByRole('row').count()).toBe(2);
    await expect
      .poll(() => moving.getByRole('row', { name: /Andheri Textiles/ }).textContent())
      .toContain(`${format.date(target.dueDate)} → ${format.date(newDue)}`);
    await screenshot(page, 'statutory-extension-preview');
    // Tell the affected clients: the default notice names the filing, the period and both dates.
    await preview.getByRole('checkbox', { name: 'Tell the affected clients' }).check();
    const subject = preview.getByRole('textbox', { name: 'Subject' });
    await expect.poll(() => subject.inputValue()).toContain(`now due ${format.date(newDue)}`);
    await expect
      .poll(() => preview.getByRole('textbox', { name: 'Message' }).textContent())
      .toContain(`from ${format.date(target.dueDate)} to ${format.date(newDue)}`);
    await subject.fill(`{{client_name}}: GSTR-3B now due ${format.date(newDue)}`);
    await screenshot(page, 'statutory-extension-notice');
    await preview.getByRole('button', { name: 'Apply extension' }).click();
    await page.getByRole('alertdialog').getByRole('button', { name: 'Apply extension' }).click();
    await page.getByText(/^Moved 1 project, 1 task, 0 reminders and 0 requests/).waitFor();
    await page.getByText('The broadcast tells 1 recipient').waitFor();
    const list = page.getByRole('table', { name: 'Recorded extensions' });
    await list.getByText('Applied · 1 project moved').waitFor();
    await screenshot(page, 'statutory-extensions');

    // The broadcast is listed with the firm's others, sent to the one client whose project moved.
    await page.goto(`${app.url}/admin/broadcasts`);
    await page
      .getByText(/^Extension: GSTR-3B \(monthly\)/)
      .first()
      .waitFor();
    await screenshot(page, 'statutory-extension-broadcast');

    // The project's page shows the new due date; the Delhi one keeps its own.
    await page.goto(`${app.url}/projects/${target.id}`);
    await page.getByText(format.date(newDue), { exact: true }).first().waitFor();
    const [moved] = await app.db.select().from(projects).where(eq(projects.id, target.id));
    expect(moved?.dueDate).toBe(newDue);
    const [task] = await app.db.select().from(tasks).where(eq(tasks.projectId, target.id));
    expect(task?.dueDate).toBe(addDays(addDays(target.periodEnd ?? '', 12), 7));
    const [delhiAfter] = await app.db
      .select()
      .from(projects)
      .where(eq(projects.id, delhiProject?.id ?? ''));
    expect(delhiAfter?.dueDate).toBe(delhiProject?.dueDate);
    expect(console.errors).toEqual([]);
    await context.close();
  });

  it('the client sees its filing calendar on a phone, the extended date and what to send', async () => {
    const firm = await indianFirm();
    const api = app.client(firm.owner.token);
    const template = await api.projectTemplates.create.mutate({ name: 'TDS quarter' });
    await api.projectTemplates.blueprints.add.mutate({
      templateId: template.id,
      title: 'Send the salary register',
      dueOffsetDays: 5,
      forClient: true,
    });
    await api.services.create.mutate({
      name: 'TDS 24Q',
      code: '24Q',
      frequency: 'quarterly',
      projectTemplateId: template.id,
      statutoryFilingCode: 'IN.TDS.24Q',
    });
    const [tds] = (await api.services.list.query({ search: '24Q' })).rows;
    const client = await api.clients.create.mutate({
      code: 'C00009',
      name: 'Powai Software LLP',
      type: 'llp',
    });
    await api.statutory.setRegistrations.mutate({
      clientId: client.id,
      data: { tan: 'MUMA12345B', pan: 'AAPFU0939F', llpin: 'AAB-1234' },
    });
    await api.engagements.create.mutate({
      clientId: client.id,
      serviceId: tds?.id ?? '',
      startDate: '2024-04-01',
    });
    const portal = await seedPortalUser(app, {
      orgId: firm.org.id,
      clientIds: [client.id],
      name: 'Rohan Iyer',
    });

    const context = await browser.newContext({ viewport: { width: 375, height: 812 } });
    await signInToPortal(context, app, portal.token);
    const { page, console } = await newPage(context);
    await page.goto(`${app.url}/clientportal/${client.id}/projects`);
    await page.getByRole('link', { name: 'Filing calendar' }).click();
    await page.waitForURL(`${app.url}/clientportal/${client.id}/calendar`);
    await page.getByRole('heading', { name: 'Filing calendar' }).waitFor();
    await page.getByText('Send the salary register').first().waitFor();
    await page
      .getByText(/^LLP Form 11/)
      .first()
      .waitFor();
    await screenshot(page, 'statutory-portal-calendar-375');
    await page.getByRole('button', { name: 'Next year' }).click();
    await page.getByText(/^FY \d{4}-\d{2}$/).waitFor();
    expect(console.errors).toEqual([]);
    await context.close();
  });
});
