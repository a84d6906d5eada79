import { addDays, format, getDay, getYear } from 'date-fns';
import { eq } from 'drizzle-orm';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { roles } from '../../src/server/db/schema';
import { signInWithCookies, startApp, type TE2eApp } from './support/app';
import { launchBrowser, newPage, screenshot } from './support/browser';
import { pickDay } from './support/date-picker';
import { cutOff } from './support/fit';

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

describe('leave in the browser', () => {
  it('owner sets a type and a holiday; a member applies around them; the owner approves; the member sees it', async () => {
    const firm = await app.seedFirm('Iyer & Co');
    await app.db
      .update(roles)
      .set({ permissions: ['clients.view', 'tasks.view', 'leaves.view', 'leaves.create'] })
      .where(eq(roles.id, firm.roles.staff.id));
    // A Friday to the Tuesday after, this year (a leave year is the calendar year): a weekend and a
    // Monday holiday in between. The next one, or in the last days of December the year's last.
    let friday = addDays(new Date(), 2);
    while (getDay(friday) !== 5) friday = addDays(friday, 1);
    if (getYear(addDays(friday, 4)) !== getYear(new Date())) {
      friday = new Date(getYear(new Date()), 11, 27);
      while (getDay(friday) !== 5) friday = addDays(friday, -1);
    }
    const start = format(friday, 'yyyy-MM-dd');
    const monday = format(addDays(friday, 3), 'yyyy-MM-dd');
    const end = format(addDays(friday, 4), 'yyyy-MM-dd');
    expect(end.slice(0, 4), 'the walk needs a Friday–Tuesday left in this year').toBe(start.slice(0, 4));

    // The owner: a leave type, a member's allocation and a holiday, on screen.
    const owner = await browser.newContext({ viewport: { width: 1280, height: 800 } });
    await signInWithCookies(owner, app, firm.owner);
    const { page: o, console: ownerConsole } = await newPage(owner);
    await o.goto(`${app.url}/admin`);
    await o
      .getByRole('link', { name: /Leave types/ })
      .first()
      .click();
    await o.waitForURL(`${app.url}/admin/hrms/leaves`);
    await o.getByText('No leave types yet').waitFor();
    await o.getByRole('button', { name: 'New leave type' }).first().click();
    const typeDialog = o.getByRole('dialog', { name: 'New leave type' });
    await typeDialog.getByRole('button', { name: 'Add leave type' }).click();
    await typeDialog.getByText('Enter a number').waitFor();
    await typeDialog.getByRole('textbox', { name: 'Name' }).fill('Annual leave');
    await typeDialog.getByRole('textbox', { name: /Allowance a year/ }).fill('10');
    await typeDialog.getByRole('textbox', { name: /Carry forward at most/ }).fill('5');
    await typeDialog.getByRole('textbox', { name: /Attachment required for requests longer than/ }).fill('1');
    await screenshot(o, 'leave-type-dialog');
    await typeDialog.getByRole('button', { name: 'Add leave type' }).click();
    await o.getByText('Leave type added').waitFor();
    await o
      .getByRole('table', { name: 'Leave types' })
      .getByRole('row')
      .filter({ hasText: /Annual leave.*10 days.*Up to 5 days/ })
      .waitFor();
    await screenshot(o, 'admin-leave-types');

    await o.getByRole('tab', { name: 'Work pattern' }).click();
    await o.getByRole('checkbox', { name: 'Mon' }).waitFor();
    await screenshot(o, 'admin-work-pattern');
    await o.getByRole('tab', { name: 'Members' }).click();
    const samRow = o
      .getByRole('table', { name: "Members' leave set-up" })
      .getByRole('row')
      .filter({ hasText: /Sam Staff/ });
    await samRow.getByRole('button', { name: 'Allocate' }).click();
    const allocate = o.getByRole('dialog', { name: 'Allocate leave to Sam Staff' });
    await allocate.getByRole('combobox', { name: 'Leave type' }).click();
    await o.getByRole('option', { name: 'Annual leave' }).click();
    await allocate.getByRole('textbox', { name: /Amount/ }).fill('10');
    await allocate.getByRole('button', { name: 'Record' }).click();
    await o.getByText('Allocation recorded').waitFor();
    await expect.poll(async () => (await samRow.textContent()) ?? '').toContain('Annual leave 10 days');
    await screenshot(o, 'admin-leave-members');

    await o.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Holidays' }).click();
    await o.waitForURL(`${app.url}/admin/hrms/holidays`);
    await o.getByRole('button', { name: 'New holiday' }).click();
    const holidayDialog = o.getByRole('dialog', { name: 'New holiday' });
    await holidayDialog.getByRole('textbox', { name: 'Name' }).fill('Founders Day');
    await pickDay(o, holidayDialog, 'Date', monday);
    await holidayDialog.getByRole('button', { name: 'Add holiday' }).click();
    await o.getByText('Holiday added').waitFor();
    await o
      .getByRole('table', { name: /Holidays in/ })
      .getByRole('row')
      .filter({ hasText: /Founders Day/ })
      .waitFor();
    await o.getByRole('button', { name: 'Import CSV' }).click();
    const importDialog = o.getByRole('dialog', { name: 'Import holidays' });
    await importDialog.getByRole('textbox', { name: 'Or paste it' }).fill('date,name\n2026-13-01,Bad day');
    await importDialog.getByText(/Line 2:/).waitFor();
    await screenshot(o, 'admin-holidays-import');
    await o.keyboard.press('Escape');
    await screenshot(o, 'admin-holidays');

    // The member applies: Friday to Tuesday deducts two days (the weekend and the holiday are free).
    const member = await browser.newContext({ viewport: { width: 1280, height: 800 } });
    await signInWithCookies(member, app, firm.staff);
    const { page: m, console: memberConsole } = await newPage(member);
    await m.goto(`${app.url}/`);
    await m.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Leaves' }).click();
    await m.waitForURL(`${app.url}/my-account/leaves`);
    await expect.poll(() => m.getByTestId('balance-Annual leave').textContent()).toBe('10 days');
    await m.getByRole('combobox', { name: 'Leave type' }).click();
    await m.getByRole('option', { name: 'Annual leave' }).click();
    await pickDay(m, m, 'First day', start);
    await pickDay(m, m, 'Last day', end);
    await expect
      .poll(() => m.getByTestId('leave-preview').textContent())
      .toBe('Deducts 2 days · balance after 8 days · needs an attachment');
    // Two days is beyond the type's one: the form says a file is needed, and holds the request back.
    await m.getByText('Required beyond 1 day of Annual leave', { exact: false }).waitFor();
    await m.getByRole('button', { name: 'Submit request' }).click();
    await m
      .getByText('Annual leave longer than 1 day needs an attachment, such as a medical certificate')
      .waitFor();
    await m.getByLabel('Attachment').setInputFiles({
      name: 'certificate.pdf',
      mimeType: 'application/pdf',
      buffer: Buffer.from('%PDF-1.4\n1 0 obj<<>>endobj\ntrailer<<>>\n%%EOF\n'),
    });
    await m.getByTestId('leave-attachment-chosen').getByText('certificate.pdf').waitFor();
    await screenshot(m, 'my-leaves-apply');
    await m.getByRole('button', { name: 'Submit request' }).click();
    await m.getByText('Leave requested').waitFor();
    const history = m.getByRole('table', { name: 'Your leave requests' });
    await history
      .getByRole('row')
      .filter({ hasText: /Annual leave.*2 days.*Pending/ })
      .waitFor();

    // The owner approves with a comment, seeing the holiday among those dates.
    await o.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Leaves' }).first().click();
    await o.waitForURL(`${app.url}/team/leaves`);
    const pending = o.getByRole('table', { name: 'Leave waiting for your decision' });
    await pending
      .getByRole('row')
      .filter({ hasText: /Sam Staff.*Annual leave/ })
      .getByRole('button', { name: 'Review' })
      .click();
    const drawer = o.getByRole('dialog', { name: 'Sam Staff: Annual leave' });
    await drawer.getByText('Founders Day').waitFor();
    await drawer.getByRole('button', { name: 'Download certificate.pdf' }).waitFor();
    const [saved] = await Promise.all([
      o.waitForEvent('download'),
      drawer.getByRole('button', { name: 'Download certificate.pdf' }).click(),
    ]);
    expect(saved.suggestedFilename()).toBe('certificate.pdf');
    // A comment as long as people write them: the history must still show every column at 1280 px.
    await drawer
      .getByRole('textbox', { name: 'Comment' })
      .fill(
        'Enjoy the long weekend. Before you go, please hand the Mehta GST reconciliation and the two pending TDS returns to Priya, with a note on where each one stands.',
      );
    await screenshot(o, 'team-leaves-decide');
    await drawer.getByRole('button', { name: 'Approve' }).click();
    await o.getByText('Leave approved').waitFor();
    await o.getByText('Nothing to decide').waitFor();
    await o.getByRole('tab', { name: 'Decided' }).click();
    await o
      .getByRole('table', { name: 'Decided leave' })
      .getByRole('row')
      .filter({ hasText: /Sam Staff.*Approved.*Enjoy the long weekend/ })
      .waitFor();
    await screenshot(o, 'team-leaves-decided');
    // The team's history too: the long comment clips, so no column is cut and the table needs no
    // sideways scroll (it had one, which a keyboard could not reach: axe's scrollable-region-focusable).
    expect(await cutOff(o)).toEqual([]);

    // The member sees it approved, the balance dropped, and the notification.
    await m.reload();
    await history
      .getByRole('row')
      .filter({ hasText: /Annual leave.*Approved.*Enjoy the long weekend/ })
      .waitFor();
    await expect.poll(() => m.getByTestId('balance-Annual leave').textContent()).toBe('8 days');
    await screenshot(m, 'my-leaves-approved');
    // At 1280 px every column of the history is in view, the attachment and Cancel included; an
    // approved leave yet to start offers Cancel, promising the days back.
    expect(await cutOff(m)).toEqual([]);
    await history.getByRole('button', { name: 'View certificate.pdf' }).waitFor();
    await history.getByRole('button', { name: 'Cancel' }).click();
    await m.getByRole('alertdialog').getByText('The days return to your balance.').waitFor();
    // Not this time: the dialog's own Cancel keeps the leave.
    await m.getByRole('alertdialog').getByRole('button', { name: 'Cancel', exact: true }).click();
    await expect.poll(() => m.getByRole('alertdialog').count()).toBe(0);
    await m.goto(`${app.url}/my-account/notifications`);
    await m
      .getByText(/Your .* is approved/)
      .first()
      .waitFor();

    expect(faults(ownerConsole.errors)).toEqual([]);
    expect(faults(memberConsole.errors)).toEqual([]);
  });
});
