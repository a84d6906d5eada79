import { eq } from 'drizzle-orm';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SEEDED_ROLES } from '../../src/domain/permissions';
import { roles } from '../../src/server/db/schema';
import { seedClient } from '../../src/server/test/fixtures';
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

const WEEK = '2026-03-02';

describe('timesheets in the browser', () => {
  it('a member types hours and submits; the approver approves one week and sends another back', async () => {
    const firm = await app.seedFirm('Time & Co');
    const staffSeed = SEEDED_ROLES.find((r) => r.name === 'Staff');
    if (!staffSeed) throw new Error('no Staff role');
    await app.db
      .update(roles)
      .set({ permissions: [...staffSeed.permissions] })
      .where(eq(roles.id, firm.roles.staff.id));
    const client = await seedClient(app, firm.org.id, { name: 'Mehta Traders' });
    // The owner's own week, submitted through the API, is the one sent back.
    const ownerApi = app.client(firm.owner.token);
    await ownerApi.timesheets.setCell.mutate({ date: WEEK, minutes: '4', clientId: client.id });
    await ownerApi.timesheets.submitWeek.mutate({ weekStart: WEEK });

    const staffContext = await browser.newContext({ viewport: { width: 1280, height: 800 } });
    await signInWithCookies(staffContext, app, firm.staff);
    const { page: staff } = await newPage(staffContext);
    await staff.goto(`${app.url}/`);
    await staff.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Timesheet' }).click();
    await staff.waitForURL(`${app.url}/my-account/timesheet`);
    await staff.goto(`${app.url}/my-account/timesheet?week=${WEEK}`);
    await staff.getByRole('combobox', { name: 'Client' }).click();
    await staff.getByRole('option', { name: 'Mehta Traders' }).click();
    await staff.getByRole('button', { name: 'Add row' }).click();
    const row = staff.getByRole('row', { name: /Mehta Traders/ });
    const cells = row.getByRole('textbox');
    await cells.nth(0).fill('1:30');
    await cells.nth(0).press('Tab');
    await cells.nth(1).fill('1.5');
    await cells.nth(1).press('Enter');
    await expect.poll(() => staff.getByTestId('week-total').textContent()).toBe('3:00');
    // A refused entry keeps what was typed and says why, in a person's words (issue 34).
    await cells.nth(2).fill('13');
    await cells.nth(2).press('Tab');
    expect(await cells.nth(2).inputValue()).toBe('13');
    expect(await cells.nth(2).getAttribute('aria-invalid')).toBe('true');
    await row
      .getByRole('alert')
      .filter({ hasText: 'An entry cannot be longer than 12 hours' })
      .waitFor({ state: 'attached' });
    await cells.nth(2).focus();
    await cells.nth(2).press('Escape');
    expect(await cells.nth(2).inputValue()).toBe('');
    await expect.poll(() => staff.getByTestId('week-total').textContent()).toBe('3:00');
    await staff.getByRole('listitem').filter({ hasText: '1:30' }).first().waitFor();
    await screenshot(staff, 'timesheet-my-week');
    await staff.getByRole('button', { name: 'Submit week' }).click();
    await staff.getByText('Week submitted for approval').waitFor();
    await expect.poll(() => cells.nth(0).isDisabled()).toBe(true);

    const ownerContext = await browser.newContext({ viewport: { width: 1280, height: 800 } });
    await signInWithCookies(ownerContext, app, firm.owner);
    const { page: owner } = await newPage(ownerContext);
    await owner.goto(`${app.url}/team/timesheets?week=${WEEK}`);
    const samRow = owner.getByRole('row', { name: /Sam Staff/ });
    await samRow.getByText('3:00 / 40:00').waitFor();
    await screenshot(owner, 'timesheet-team-week');

    // The owner sees money: a client's billing rate set on the Rates tab values Sam's week, first as
    // an estimate, then at the rate frozen by approval.
    await owner.getByRole('navigation', { name: 'Timesheets' }).getByRole('link', { name: 'Rates' }).click();
    await owner.getByRole('tab', { name: 'Clients' }).click();
    await owner.getByRole('button', { name: 'Set rates for Mehta Traders' }).click();
    const rateDialog = owner.getByRole('dialog', { name: 'Rates for Mehta Traders' });
    await rateDialog.getByLabel('Billing rate (USD)').fill('1500.5');
    await rateDialog.getByRole('button', { name: 'Save rates' }).click();
    await owner.getByText('Rates saved for Mehta Traders').waitFor();
    await owner
      .getByRole('row', { name: /Mehta Traders/ })
      .getByText('US$1,500.50')
      .waitFor();
    await screenshot(owner, 'timesheet-rates');
    await owner.getByRole('navigation', { name: 'Timesheets' }).getByRole('link', { name: 'Weeks' }).click();
    await samRow.getByText('US$4,501.50').waitFor();
    await samRow.getByText('estimate').waitFor();
    await screenshot(owner, 'timesheet-team-money');

    await samRow.getByRole('checkbox', { name: 'Select Sam Staff' }).click();
    await owner.getByRole('button', { name: /Approve selected/ }).click();
    await samRow.getByText('Approved').waitFor();
    await expect.poll(() => samRow.getByText('estimate').count()).toBe(0);
    await samRow.getByText('US$4,501.50').waitFor();

    const oliviaRow = owner.getByRole('row', { name: /Olivia Owner/ });
    await oliviaRow.getByRole('button', { name: 'Send back' }).click();
    const dialog = owner.getByRole('dialog');
    await dialog.getByLabel('Comment').fill('Split the four hours by task');
    await screenshot(owner, 'timesheet-send-back');
    await dialog.getByRole('button', { name: 'Send back' }).click();
    await oliviaRow.getByText('Sent back').waitFor();
    await samRow.getByText('Approved').waitFor();

    // A task's own rate, in its drawer.
    const task = await ownerApi.tasks.create.mutate({ title: 'GST return', clientId: client.id });
    await owner.goto(`${app.url}/tasks?task=${task.id}`);
    const taskRate = owner.getByRole('dialog').getByLabel('Billing rate per hour (USD)');
    await taskRate.fill('2000');
    await taskRate.press('Tab');
    await owner.getByText('Task rate set to US$2,000.00').waitFor();
    await screenshot(owner, 'timesheet-task-rate');
    await expect
      .poll(async () => (await ownerApi.timesheets.rates.task.query({ taskId: task.id })).rate)
      .toBe(200000);

    // The week sent back is open again for its member, with the comment.
    await owner.goto(`${app.url}/my-account/timesheet?week=${WEEK}`);
    await owner.getByText('Sent back: Split the four hours by task').waitFor();
    await expect.poll(() => owner.getByRole('button', { name: 'Submit week' }).isVisible()).toBe(true);
  });
});
