import { eq } from 'drizzle-orm';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { addDays } from '../../src/domain/days';
import { SEEDED_ROLES } from '../../src/domain/permissions';
import { OWN_WEEK_REFUSED } from '../../src/domain/timesheet-approval';
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
  it('a member types hours and submits; the owner approves it and cannot decide her own week', async () => {
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

    // Nobody approves their own week: the owner's row can be neither ticked nor sent back by her.
    const oliviaRow = owner.getByRole('row', { name: /Olivia Owner/ });
    expect(await oliviaRow.getByRole('checkbox').isDisabled()).toBe(true);
    expect(await oliviaRow.getByRole('button', { name: /Send back/ }).count()).toBe(0);
    await oliviaRow.getByRole('button', { name: OWN_WEEK_REFUSED }).waitFor();
    // The header counts the week shown, and says which.
    await owner
      .getByText(/^0 of 2 members have not submitted the week of (2 Mar 2026|Mar 2, 2026)$/)
      .waitFor();

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
  });

  it('an approver opens a week from its row, sees its unusual days and looks twice before approving', async () => {
    const firm = await app.seedFirm('Flags & Co');
    const staffSeed = SEEDED_ROLES.find((r) => r.name === 'Staff');
    if (!staffSeed) throw new Error('no Staff role');
    await app.db
      .update(roles)
      .set({ permissions: [...staffSeed.permissions] })
      .where(eq(roles.id, firm.roles.staff.id));
    const client = await seedClient(app, firm.org.id, { name: 'Kapoor Exports' });
    const ownerApi = app.client(firm.owner.token);
    const staffApi = app.client(firm.staff.token);
    await ownerApi.leave.holidays.create.mutate({ date: addDays(WEEK, 2), name: 'Holi' });
    await staffApi.timesheets.setCell.mutate({ date: WEEK, minutes: '12', clientId: client.id });
    await staffApi.timesheets.create.mutate({ date: WEEK, minutes: '2', note: 'Filing night' });
    await staffApi.timesheets.setCell.mutate({ date: addDays(WEEK, 2), minutes: '3', clientId: client.id });
    await staffApi.timesheets.setCell.mutate({ date: addDays(WEEK, 5), minutes: '2', clientId: client.id });
    await staffApi.timesheets.submitWeek.mutate({ weekStart: WEEK });

    const context = await browser.newContext({ viewport: { width: 1280, height: 800 } });
    await signInWithCookies(context, app, firm.owner);
    const { page } = await newPage(context);
    await page.goto(`${app.url}/team/timesheets?week=${WEEK}`);
    const samRow = page.getByRole('row', { name: /Sam Staff/ });
    await samRow.getByRole('button', { name: "14:00 is over the firm's daily limit of 10:00" }).waitFor();
    await samRow.getByRole('button', { name: 'Time logged on a holiday (Holi)' }).waitFor();
    await samRow.getByRole('button', { name: 'Time logged on a weekend' }).waitFor();
    // At 1280 px the week fits: nothing scrolls sideways and no name or amount wraps.
    const fit = await page.evaluate(() => {
      const table = document.querySelector('main table');
      const box = table?.parentElement;
      const name = [...document.querySelectorAll('main tbody th button')].map(
        (b) => b.getBoundingClientRect().height,
      );
      return { over: (table?.scrollWidth ?? 0) - (box?.clientWidth ?? 0), tallestName: Math.max(...name) };
    });
    expect(fit.over).toBeLessThanOrEqual(0);
    expect(fit.tallestName).toBeLessThan(30);
    await screenshot(page, 'timesheet-team-flags');

    await samRow.getByRole('button', { name: "Open Sam Staff's week" }).click();
    const drawer = page.getByRole('dialog', { name: /Sam Staff: week of/ });
    await drawer.getByText('Filing night').waitFor();
    await drawer.getByText('Time logged on a holiday (Holi)').waitFor();
    await drawer
      .getByRole('row', { name: /Kapoor Exports/ })
      .first()
      .waitFor();
    expect(page.url()).toContain(`member=${firm.staff.id}`);
    await screenshot(page, 'timesheet-member-week');

    // Approving a week with unusual days asks first, naming them; cancelling leaves it submitted.
    await drawer.getByRole('button', { name: 'Approve week' }).click();
    const ask = page.getByRole('alertdialog', { name: 'Approve a week with unusual days?' });
    await ask.getByText(/Sam Staff, .*: Time logged on a weekend/).waitFor();
    await screenshot(page, 'timesheet-approve-flags');
    await ask.getByRole('button', { name: 'Cancel' }).click();
    expect((await staffApi.timesheets.myWeek.query({ weekStart: WEEK })).status).toBe('submitted');

    // Sent back from the open week instead, with a comment.
    await drawer.getByRole('button', { name: 'Send back' }).click();
    const sendBack = page.getByRole('dialog', { name: "Send back Sam Staff's week" });
    await sendBack.getByLabel('Comment').fill('Split Monday: 14 hours in one day?');
    await sendBack.getByRole('button', { name: 'Send back' }).click();
    await drawer.getByText('Sent back: Split Monday: 14 hours in one day?').waitFor();
    // Closed, the drawer leaves the address and the row says what happened.
    await page.keyboard.press('Escape');
    await samRow.getByText('Sent back').waitFor();
    expect(page.url()).not.toContain('member=');
    await expect
      .poll(async () => (await staffApi.timesheets.myWeek.query({ weekStart: WEEK })).comment)
      .toBe('Split Monday: 14 hours in one day?');
  });
});
