import type { Browser, Locator, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { seedPortalUser } from '../../src/server/test/portal';
import { seedPortalClient } from '../../src/server/test/portal-world';
import { signInToPortal, signInWithCookies, startApp, type TE2eApp } from './support/app';
import { launchBrowser, newPage, screenshot } from './support/browser';
import { cutOff } from './support/fit';

// Client requests end to end (issue 36): staff build a template (files, a yes/no question and an
// item shown only for "yes"), send it; the client answers on a phone with files and submits; staff
// return an item with a reason; the client fixes it; staff accept everything and complete; the
// files are in the client's documents.

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

const pdf = (name: string) => ({
  name,
  mimeType: 'application/pdf',
  buffer: Buffer.from(`%PDF-1.4\n% ${name}\n%%EOF\n`),
});

/** Picks an option of the Radix select labelled `label` inside `scope`. */
async function choose(page: Page, scope: Locator, label: string, option: string) {
  await scope.getByRole('combobox', { name: label }).click();
  await page.getByRole('option', { name: option, exact: true }).click();
}

async function noSidewaysScroll(page: Page) {
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(
    page.viewportSize()?.width ?? 0,
  );
}

describe('client requests in the browser', () => {
  it('template, send, answer on a phone, return, fix, accept, complete, filed', async () => {
    const firm = await app.seedFirm('Sharma & Associates');
    const { client } = await seedPortalClient(app, firm, 'Mehta Traders');
    const portalUser = await seedPortalUser(app, {
      orgId: firm.org.id,
      clientIds: [client.id],
      name: 'Priya Mehta',
    });

    const staffContext = await browser.newContext({ viewport: { width: 1280, height: 900 } });
    await signInWithCookies(staffContext, app, firm.owner);
    const { page: staff, console: staffConsole } = await newPage(staffContext);

    // The template: three items, the third shown only when the second is answered yes.
    await staff.goto(`${app.url}/admin/templates/requests`);
    await staff.getByText('No request templates yet').waitFor();
    await staff.getByRole('link', { name: 'New template' }).click();
    await staff.waitForURL(`${app.url}/admin/templates/requests/new`);
    await staff.getByLabel('Name').fill('Year-end papers');
    const items = staff.getByRole('region', { name: 'Section 1' }).locator('ol > li');
    await items.nth(0).getByLabel('Question').fill('Bank statements, April to March');
    await items.nth(0).getByLabel('Hint').fill('Every account, as PDF');
    await staff.getByRole('button', { name: 'Add item' }).click();
    await items.nth(1).getByLabel('Question').fill('Did you sell property this year?');
    await choose(staff, items.nth(1), 'Kind', 'Yes or no');
    await staff.getByRole('button', { name: 'Add item' }).click();
    await items.nth(2).getByLabel('Question').fill('Sale deed');
    await choose(staff, items.nth(2), 'Shown', 'When “Did you sell property this year?” is…');
    await choose(staff, items.nth(2), 'Answer', 'Yes');
    await staff.getByRole('button', { name: 'Save template' }).first().click();
    await staff.getByText('Added the template Year-end papers').waitFor();
    await staff.waitForURL(/\/admin\/templates\/requests\/[0-9a-f-]{36}$/);
    expect(await cutOff(staff)).toEqual([]);
    await screenshot(staff, 'request-template-editor');

    // Sent from the client's page, from the template, as it stands.
    await staff.goto(`${app.url}/clients/${client.id}/requests`);
    await staff.getByText('Nothing asked of this client yet').waitFor();
    await staff.getByRole('button', { name: 'New request' }).click();
    const dialog = staff.getByRole('dialog', { name: 'New request' });
    await choose(staff, dialog, 'Start from', 'Year-end papers');
    await expect
      .poll(() => dialog.getByRole('textbox', { name: 'Title', exact: true }).inputValue())
      .toBe('Year-end papers');
    expect(await dialog.getByRole('checkbox', { name: /Priya Mehta/ }).getAttribute('data-state')).toBe(
      'checked',
    );
    await dialog.getByLabel('Message').fill('Please send these by the due date.');
    await screenshot(staff, 'request-send-dialog');
    await dialog.getByRole('button', { name: 'Save as draft' }).click();
    await staff.waitForURL(/\/requests\/[0-9a-f-]{36}$/);
    const requestUrl = staff.url();
    const requestId = requestUrl.split('/').pop() as string;
    await staff.getByRole('heading', { level: 1, name: /Year-end papers/ }).waitFor();
    await staff.getByText('Draft', { exact: true }).first().waitFor();

    // The draft, edited for this client before it goes: another item, moved up, a new message.
    await staff.getByRole('button', { name: 'Edit draft' }).click();
    const edit = staff.getByRole('dialog', { name: 'Edit draft request' });
    await edit.getByRole('button', { name: 'Add item' }).click();
    const added = edit.getByRole('listitem', { name: 'Item 4' });
    await added.getByLabel('Question').fill('Rent receipts');
    await edit.getByRole('button', { name: 'Move “Rent receipts” up' }).click();
    await edit.getByLabel('Message').fill('Please send these, and the rent receipts if you rent.');
    expect(await cutOff(staff)).toEqual([]);
    await edit.getByRole('button', { name: 'Save and send' }).click();
    await staff.getByText('Request sent').waitFor();
    await staff.getByText('Sent', { exact: true }).first().waitFor();
    await staff.getByText('Please send these, and the rent receipts if you rent.').waitFor();
    expect(
      await staff
        .locator('li[aria-label]')
        .evaluateAll((li) => li.map((el) => el.getAttribute('aria-label'))),
    ).toEqual(['Bank statements, April to March', 'Did you sell property this year?', 'Rent receipts']);
    // The client was mailed the request's link.
    expect((await app.lastMail(portalUser.user.email)).notes.link).toContain(
      `/clientportal/${client.id}/requests/${requestId}`,
    );

    // The client, on a phone: the request in the list, the bottom bar's seven sections in view.
    const phoneContext = await browser.newContext({ viewport: { width: 375, height: 800 } });
    await signInToPortal(phoneContext, app, portalUser.token);
    // The upload sent while the phone is offline fails in the network first: that one is expected.
    const { page: phone, console: phoneConsole } = await newPage(phoneContext, {
      allowErrors: [/ERR_INTERNET_DISCONNECTED/],
    });
    await phone.goto(`${app.url}/clientportal/${client.id}/requests`);
    const bar = phone.getByRole('navigation', { name: 'Portal sections' });
    await bar.getByRole('link', { name: 'Requests' }).waitFor();
    const barLinks = await bar.getByRole('link').all();
    expect(barLinks).toHaveLength(7);
    for (const link of barLinks) {
      // The label's own text, measured: centred text spilling both ways does not show in scrollWidth.
      const fits = await link.evaluate((el) => {
        const box = el.getBoundingClientRect();
        const range = document.createRange();
        range.selectNodeContents(el);
        const text = range.getBoundingClientRect();
        return text.left >= box.left - 0.5 && text.right <= box.right + 0.5 && box.right <= window.innerWidth;
      });
      expect(fits, `${await link.textContent()} fits its place in the bar`).toBe(true);
    }
    await phone.getByRole('link', { name: /Year-end papers/ }).click();
    await phone.waitForURL(`${app.url}/clientportal/${client.id}/requests/${requestId}`);
    await phone.getByText('0 of 3', { exact: true }).waitFor();
    await noSidewaysScroll(phone);

    const bank = phone.getByTestId('item-item-1');
    await bank
      .getByLabel('Upload files', { exact: true })
      .setInputFiles([pdf('sbi-statement.pdf'), pdf('hdfc-statement.pdf')]);
    // A phone's camera is offered for the same item: an image picker that captures.
    const camera = bank.getByLabel('Upload files: take a photo');
    expect(await camera.getAttribute('capture')).toBe('environment');
    expect(await camera.getAttribute('accept')).toBe('image/*');
    await bank.getByRole('list', { name: 'Files uploaded' }).getByText('hdfc-statement.pdf').waitFor();
    await bank.getByRole('list', { name: 'Files uploaded' }).getByText('sbi-statement.pdf').waitFor();

    // With the keyboard: Yes is chosen with the space bar, which brings the sale deed in.
    const yes = phone.getByTestId('item-item-2').getByRole('radio', { name: 'Yes' });
    await yes.focus();
    await phone.keyboard.press('Space');
    expect(await yes.isChecked()).toBe(true);
    const deed = phone.getByTestId('item-item-3');
    await deed.waitFor();
    await phone.getByText('2 of 4', { exact: true }).waitFor();
    // Rent receipts do not apply: said so, with the reason.
    const rent = phone.getByTestId('item-item-4');
    await rent.getByRole('button', { name: 'Not applicable' }).click();
    await rent.getByLabel('Why does this not apply?').fill('I live in my own flat');
    await rent.getByRole('button', { name: 'Mark not applicable' }).click();
    await rent.getByText('I live in my own flat').waitFor();
    await phone.getByText('3 of 4', { exact: true }).waitFor();
    // The phone loses its signal as the deed goes: the file waits, and goes once the signal is back.
    await phoneContext.setOffline(true);
    await deed.getByLabel('Upload files', { exact: true }).setInputFiles([pdf('sale-deed.pdf')]);
    const deedUpload = deed.getByRole('region', { name: 'Uploads' }).getByRole('listitem');
    await deedUpload.getByText('Reconnecting').waitFor();
    await deedUpload.getByText('The connection was lost: the upload starts again when it is back.').waitFor();
    expect(await deed.getByRole('list', { name: 'Files uploaded' }).getByText('sale-deed.pdf').count()).toBe(
      0,
    );
    await phoneContext.setOffline(false);
    await deedUpload.getByText('Uploaded').waitFor();
    await deed.getByRole('list', { name: 'Files uploaded' }).getByText('sale-deed.pdf').waitFor();
    await phone.getByText('4 of 4', { exact: true }).waitFor();
    await phone.getByText('4 of 4 items done').waitFor({ state: 'attached' });
    await noSidewaysScroll(phone);
    await screenshot(phone, 'portal-request-answered-phone');
    const submit = phone.getByRole('button', { name: 'Submit to the firm' });
    await submit.focus();
    await phone.keyboard.press('Enter');
    await phone.getByText('Submitted. The firm will tell you if anything needs fixing.').waitFor();

    // Staff return the sale deed with a reason.
    await staff.reload();
    const deedReview = staff.getByRole('listitem', { name: 'Sale deed' });
    await deedReview.getByRole('button', { name: 'Download sale-deed.pdf' }).waitFor();
    await staff
      .getByRole('listitem', { name: 'Bank statements, April to March' })
      .getByRole('button', { name: 'Download sbi-statement.pdf' })
      .waitFor();
    // Every file is held with its item until the firm accepts it; a PDF can be viewed in place.
    await deedReview.getByText('Held with the item until accepted').waitFor();
    await deedReview.getByRole('button', { name: 'View sale-deed.pdf' }).waitFor();
    await staff
      .getByRole('listitem', { name: 'Did you sell property this year?' })
      .getByText('Yes', { exact: true })
      .waitFor();
    await screenshot(staff, 'request-review');
    await deedReview.getByRole('button', { name: 'Return' }).click();
    await deedReview.getByRole('button', { name: 'Return to client' }).click();
    await deedReview.getByText('Tell the client what to fix').waitFor();
    await deedReview
      .getByLabel('What should the client fix?')
      .fill('This copy is unsigned: send the signed deed');
    await deedReview.getByRole('button', { name: 'Return to client' }).click();
    await staff.getByText('Returned Sale deed to the client').waitFor();
    await deedReview.getByText('Returned: This copy is unsigned: send the signed deed').waitFor();

    // The client sees what to fix, fixes it and submits again.
    await phone.reload();
    await deed.getByText('To fix: This copy is unsigned: send the signed deed').waitFor();
    await deed.getByLabel('Add more files', { exact: true }).setInputFiles([pdf('sale-deed-signed.pdf')]);
    await deed.getByRole('list', { name: 'Files uploaded' }).getByText('sale-deed-signed.pdf').waitFor();
    await phone.getByRole('button', { name: 'Submit to the firm' }).click();
    await phone.getByText('Submitted. The firm will tell you if anything needs fixing.').waitFor();
    await noSidewaysScroll(phone);

    // Staff accept every item and complete the request.
    await staff.reload();
    await deedReview.getByRole('button', { name: 'Download sale-deed-signed.pdf' }).waitFor();
    // Returned, the item's files stayed with it: nothing is filed in the client's documents yet.
    await staff.goto(`${app.url}/clients/${client.id}/documents`);
    await staff
      .getByRole('table', { name: 'Contents of Documents' })
      .or(staff.getByText('This folder is empty'))
      .first()
      .waitFor();
    expect(await staff.getByRole('link', { name: 'Year-end papers' }).count()).toBe(0);
    await staff.goto(requestUrl);
    for (const name of [
      'Bank statements, April to March',
      'Did you sell property this year?',
      'Rent receipts',
      'Sale deed',
    ]) {
      const item = staff.getByRole('listitem', { name });
      await item.getByRole('button', { name: 'Accept' }).click();
      await item.getByText('Accepted', { exact: true }).waitFor();
    }
    await staff.getByText('2 files filed in “Year-end papers”, shared with the client').first().waitFor();
    await screenshot(staff, 'request-review-accepted');
    await staff.getByRole('button', { name: 'Complete' }).click();
    await staff.getByText('Request complete').waitFor();
    await staff.getByText('Complete', { exact: true }).first().waitFor();

    // In the list, complete; the files are in the client's documents, in the request's folder.
    await staff.goto(`${app.url}/requests?status=complete`);
    await staff.getByRole('link', { name: /Year-end papers/ }).waitFor();
    expect(await cutOff(staff)).toEqual([]);
    await staff.goto(requestUrl);
    await deedReview.getByRole('link', { name: 'Filed in documents' }).first().click();
    await staff.waitForURL(new RegExp(`/clients/${client.id}/documents/[0-9a-f-]{36}$`));
    for (const file of ['sbi-statement.pdf', 'hdfc-statement.pdf', 'sale-deed.pdf', 'sale-deed-signed.pdf']) {
      await staff.getByText(file, { exact: true }).first().waitFor();
    }

    await phone.goto(`${app.url}/clientportal/${client.id}/requests/${requestId}`);
    await phone.getByText('Complete. Thank you!').waitFor();
    expect(staffConsole.errors).toEqual([]);
    expect(phoneConsole.errors).toEqual([]);
    await staffContext.close();
    await phoneContext.close();
  }, 180_000);
});
