import type { Browser, Locator, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { seedPortalUser } from '../../src/server/test/portal';
import { seedPortalClient } from '../../src/server/test/portal-world';
import { signInWithCookies, startApp, type TE2eApp } from './support/app';
import { launchBrowser, newPage, screenshot } from './support/browser';
import { cutOff } from './support/fit';

// Client requests in the flow of work (issue 36): staff send a template to several clients from
// the client list (one without a portal user is skipped, with a way to invite someone), see what
// waits on clients on the dashboard, send a request from a project's page and find it there, in
// the task drawer and on the project template's screen.

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

/** Picks an option of the Radix select labelled `label` inside `scope`. */
async function choose(page: Page, scope: Locator, label: string, option: string) {
  await scope.getByRole('combobox', { name: label }).click();
  await page.getByRole('option', { name: option, exact: true }).click();
}

describe('client requests in the flow of work', () => {
  it('bulk send with a skipped client, the dashboard card, a request from a project', async () => {
    const firm = await app.seedFirm('Iyer & Co');
    const mehta = await seedPortalClient(app, firm, 'Mehta Traders');
    const nair = await seedPortalClient(app, firm, 'Nair Exports');
    const priya = await seedPortalUser(app, {
      orgId: firm.org.id,
      clientIds: [mehta.client.id],
      name: 'Priya Mehta',
    });
    await mehta.api.requests.templates.save.mutate({
      name: 'Year-end papers',
      sections: [
        {
          title: 'Papers',
          items: [
            { key: 'bank', kind: 'file', label: 'Bank statements' },
            { key: 'rent', kind: 'yes_no', label: 'Did you pay rent?' },
          ],
        },
      ],
    });

    const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
    await signInWithCookies(context, app, firm.owner);
    const { page, console } = await newPage(context);

    // The client list: select both, Send request.
    await page.goto(`${app.url}/clients`);
    const table = page.getByRole('table');
    await table.getByRole('checkbox', { name: 'Select Mehta Traders' }).click();
    await table.getByRole('checkbox', { name: 'Select Nair Exports' }).click();
    await page.getByRole('button', { name: 'Send request' }).click();
    const dialog = page.getByRole('dialog', { name: 'Send a request to 2 clients' });
    await dialog.getByRole('button', { name: 'Send to 2 clients' }).click();
    await page.getByText('Some fields need attention').waitFor();
    await choose(page, dialog, 'Template', 'Year-end papers (2 items)');
    await dialog.getByLabel('Message').fill('Please upload these before the due date.');
    await dialog.getByRole('button', { name: 'Send to 2 clients' }).click();
    await page.getByText('Request sent to 1 client, 1 skipped').waitFor();
    const skipped = dialog.getByRole('list', { name: 'Skipped clients' });
    await skipped.getByText('Nair Exports').waitFor();
    await skipped.getByText('No portal user: invite someone to the portal first').waitFor();
    expect(await skipped.getByRole('link', { name: 'Invite a portal user' }).getAttribute('href')).toBe(
      `/clients/${nair.client.id}/client-users`,
    );
    await screenshot(page, 'requests-bulk-send-skipped');
    expect((await app.lastMail(priya.user.email)).text).toContain('Please upload these before the due date.');
    await dialog.getByRole('button', { name: 'Done' }).click();

    // The dashboard: the request waits on Mehta Traders, with a link to it.
    await page.goto(`${app.url}/`);
    const card = page.getByRole('region', { name: 'Waiting on clients' });
    const waiting = card.getByRole('list', { name: 'Requests waiting on clients' });
    await waiting.getByRole('link', { name: 'Year-end papers' }).waitFor();
    await waiting.getByText('Mehta Traders').waitFor();
    expect(await cutOff(page)).toEqual([]);
    await card.scrollIntoViewIfNeeded();
    await screenshot(page, 'requests-dashboard-waiting');
    await waiting.getByRole('link', { name: 'Year-end papers' }).click();
    await page.waitForURL(/\/requests\/[0-9a-f-]{36}$/);
    await page.getByRole('heading', { level: 1, name: /Year-end papers/ }).waitFor();

    // A project's page: nothing asked yet; a request sent from it is listed there.
    await page.goto(`${app.url}/projects/${mehta.project.id}`);
    const requests = page.getByRole('region', { name: 'Client requests' });
    await requests.getByText('Nothing asked of the client for this project yet').waitFor();
    await requests.getByRole('button', { name: 'New request' }).click();
    const send = page.getByRole('dialog', { name: 'New request' });
    await choose(page, send, 'Start from', 'Year-end papers');
    await send.getByRole('textbox', { name: 'Title', exact: true }).fill('Papers for the annual accounts');
    await send.getByRole('button', { name: 'Send request' }).click();
    await page.waitForURL(/\/requests\/[0-9a-f-]{36}$/);
    await page.goto(`${app.url}/projects/${mehta.project.id}`);
    const listed = requests.getByRole('list', { name: 'Requests of the project' });
    await listed.getByRole('link', { name: 'Papers for the annual accounts' }).waitFor();
    await listed.getByText('Sent', { exact: true }).waitFor();
    // Its portal to-do is among the project's tasks.
    const tasks = page.getByRole('table', { name: 'Tasks of the project' });
    await tasks.getByRole('link', { name: 'Papers for the annual accounts' }).waitFor();
    expect(await cutOff(page)).toEqual([]);
    await screenshot(page, 'requests-project-card');

    // The task drawer names the request and its state.
    await tasks.getByRole('link', { name: 'Papers for the annual accounts' }).click();
    const linked = page.getByRole('region', { name: 'Client request', exact: true });
    await linked.getByRole('link', { name: 'Papers for the annual accounts' }).waitFor();
    await linked.getByText('Sent', { exact: true }).waitFor();
    await screenshot(page, 'requests-task-drawer');

    // The client's header counts its open requests.
    await page.goto(`${app.url}/clients/${mehta.client.id}`);
    await page.getByRole('link', { name: /2 open requests, oldest due/ }).waitFor();

    expect(console.errors).toEqual([]);
    await context.close();
    // Four screens and a dialog in one walk: longer than one screen's minute on a busy machine.
  }, 180_000);
});
