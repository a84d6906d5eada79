import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
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

const PHONE = { width: 375, height: 800 };

/** The portal's sign-in as the browser holds it: the httpOnly session and its companion cookie. */
describe('the client portal at 375 px', () => {
  it('shows the open task, uploads a document the firm sees, and completes the task the firm sees done', async () => {
    const firm = await app.seedFirm('Sharma & Associates');
    const own = await seedPortalClient(app, firm, 'Mehta Traders');
    const sibling = await seedPortalClient(app, firm, 'Sibling Industries');
    const portal = await seedPortalUser(app, {
      orgId: firm.org.id,
      clientIds: [own.client.id],
      name: 'Priya Mehta',
    });

    const context = await browser.newContext({ viewport: PHONE });
    await signInToPortal(context, app, portal.token);
    const { page, console } = await newPage(context);

    // One client: /clientportal goes straight to its home.
    await page.goto(`${app.url}/clientportal`);
    await page.waitForURL(`${app.url}/clientportal/${own.client.id}`);
    const todo = page.getByRole('link', { name: 'Send bank statements for Mehta Traders' });
    await todo.waitFor();
    await page.getByTestId('portal-firm').getByText('Sharma & Associates').waitFor();
    await page.getByText('Your contact:').waitFor();
    expect(await page.getByText('INTERNAL').count()).toBe(0);
    expect(await page.getByText('(internal)').count()).toBe(0);
    await screenshot(page, 'portal-home');

    // Documents: into the shared folder, upload with progress, and the file is listed.
    const sections = page.getByRole('navigation', { name: 'Portal sections' });
    await sections.getByRole('link', { name: 'Documents' }).click();
    await page.waitForURL(`${app.url}/clientportal/${own.client.id}/documents`);
    await page.getByRole('link', { name: 'Shared with you' }).waitFor();
    expect(await page.getByText('Working papers').count()).toBe(0);
    await screenshot(page, 'portal-documents');
    await page.getByRole('link', { name: 'Shared with you' }).click();
    await page.waitForURL(`${app.url}/clientportal/${own.client.id}/documents/${own.shared.id}`);
    await page.getByRole('navigation', { name: 'Breadcrumb' }).getByText('Shared with you').waitFor();
    expect(await page.getByText('Working papers').count()).toBe(0);
    await page.getByLabel('Upload files').setInputFiles({
      name: 'form-16.pdf',
      mimeType: 'application/pdf',
      buffer: Buffer.from('%PDF-1.4 Form 16 for FY 2025-26'),
    });
    const uploads = page.getByRole('region', { name: 'Uploads' });
    await uploads.locator('[data-upload-status="done"]').waitFor({ timeout: 20_000 });
    expect(
      await uploads.getByRole('progressbar', { name: 'Upload of form-16.pdf' }).getAttribute('aria-valuenow'),
    ).toBe('100');
    await page.getByRole('list', { name: 'Files' }).getByText('form-16.pdf').waitFor();
    await screenshot(page, 'portal-documents-uploaded');

    // The firm sees it in the client's folder, shared with the portal.
    const staffContext = await browser.newContext({ viewport: { width: 1280, height: 800 } });
    await signInWithCookies(staffContext, app, firm.owner);
    const staff = await newPage(staffContext);
    await staff.page.goto(`${app.url}/clients/${own.client.id}/documents/${own.shared.id}`);
    await staff.page
      .getByRole('row', { name: /form-16\.pdf/ })
      .getByText('Shared')
      .waitFor();
    await screenshot(staff.page, 'portal-staff-sees-upload');

    // Tasks: open the to-do, comment, attach, mark it done.
    await sections.getByRole('link', { name: 'Tasks' }).click();
    await page.waitForURL(`${app.url}/clientportal/${own.client.id}/tasks`);
    await page
      .getByRole('navigation', { name: 'Tags' })
      .getByRole('link', { name: 'bank', exact: true })
      .waitFor();
    await screenshot(page, 'portal-tasks');
    await page.getByRole('link', { name: 'Send bank statements for Mehta Traders' }).click();
    const panel = page.getByRole('dialog', { name: 'Send bank statements for Mehta Traders' });
    await panel.getByText('All accounts, April to March').waitFor();
    await panel.getByLabel('Write a comment').fill('Uploaded the HDFC statement');
    await panel.getByRole('button', { name: 'Send' }).click();
    await panel.getByText('Uploaded the HDFC statement').waitFor();
    await panel.getByLabel('Attach files').setInputFiles({
      name: 'hdfc.pdf',
      mimeType: 'application/pdf',
      buffer: Buffer.from('%PDF-1.4 statement'),
    });
    await panel.getByRole('link', { name: 'Download hdfc.pdf' }).waitFor({ timeout: 20_000 });
    await screenshot(page, 'portal-task-panel');
    await panel.getByRole('button', { name: 'Mark as done' }).click();
    await panel.locator('[data-status="COMPLETED"]').waitFor();
    await panel.getByRole('button', { name: 'Mark as done' }).waitFor({ state: 'detached' });
    // The toast it raises sits below the drawer's header: its title and close button stay in view.
    const headerBottom = Math.max(
      ...(await Promise.all(
        [
          panel.getByRole('heading', { name: 'Send bank statements for Mehta Traders' }),
          panel.getByRole('button', { name: 'Close', exact: true }),
        ].map(async (l) => {
          const box = await l.boundingBox();
          return (box?.y ?? 0) + (box?.height ?? 0);
        }),
      )),
    );
    const toast = page.locator('[data-sonner-toast]').filter({ hasText: 'Marked as done' });
    await toast.waitFor();
    // Polled while it slides in; it lasts 4 s, so a missing one fails fast rather than waiting.
    await expect
      .poll(async () => (await toast.boundingBox({ timeout: 1_000 }))?.y ?? -1)
      .toBeGreaterThanOrEqual(headerBottom);
    await screenshot(page, 'portal-task-done');
    await page.keyboard.press('Escape');
    await page.getByText('Nothing to do right now').waitFor();
    await page.getByRole('tab', { name: 'Completed' }).click();
    await page.getByRole('link', { name: 'Send bank statements for Mehta Traders' }).waitFor();
    await screenshot(page, 'portal-tasks-completed');

    // The firm sees it Completed, with the client's comment in the thread.
    await staff.page.goto(`${app.url}/tasks?task=${own.task.id}`);
    const drawer = staff.page.getByRole('dialog', { name: 'Send bank statements for Mehta Traders' });
    await drawer.locator('[data-status="COMPLETED"]').waitFor();
    await drawer.getByText('Uploaded the HDFC statement').waitFor();
    await drawer.getByText('Priya Mehta (client)', { exact: true }).last().waitFor();
    await screenshot(staff.page, 'portal-staff-sees-done');

    // Projects, without the firm's notes.
    await sections.getByRole('link', { name: 'Projects' }).click();
    await page.getByText('Mehta Traders annual accounts').waitFor();
    expect(await page.getByText('fee dispute').count()).toBe(0);
    await screenshot(page, 'portal-projects');

    // The home lists the new file among the recent documents.
    await sections.getByRole('link', { name: 'Home' }).click();
    await page.getByRole('link', { name: 'Download form-16.pdf' }).waitFor();
    await screenshot(page, 'portal-home-after');

    // Another client's folder is not valid here either.
    await page.goto(`${app.url}/clientportal/${own.client.id}/documents/${sibling.shared.id}`);
    await page
      .getByText(`Page Not Found: /clientportal/${own.client.id}/documents/${sibling.shared.id}`)
      .waitFor();

    // Another client of the firm is not this person's: the route is not valid.
    await page.goto(`${app.url}/clientportal/${sibling.client.id}`);
    await page.getByText(`Page Not Found: /clientportal/${sibling.client.id}`).waitFor();
    // Decided before any screen asks the server: no error toast.
    expect(await page.getByText('Client not found').count()).toBe(0);
    await screenshot(page, 'portal-not-found');

    expect(console.errors.filter((e) => !/404|Not Found|Failed to load resource/i.test(e))).toEqual([]);
    await staffContext.close();
    await context.close();
  });

  it('lets a person with several clients choose, switch between them, and sends a visitor without the cookie to the portal login', async () => {
    const firm = await app.seedFirm('Iyer Tax Advisors');
    const a = await seedPortalClient(app, firm, 'Kapoor Holdings');
    const b = await seedPortalClient(app, firm, 'Kapoor Family Trust');
    const portal = await seedPortalUser(app, { orgId: firm.org.id, clientIds: [a.client.id, b.client.id] });

    const context = await browser.newContext({ viewport: PHONE });
    await signInToPortal(context, app, portal.token);
    const { page } = await newPage(context);
    await page.goto(`${app.url}/clientportal`);
    await page.getByRole('link', { name: /Kapoor Family Trust/ }).waitFor();
    // The portal's own page (its routes only), not the staff app's with every screen's config.
    expect(await page.locator('script[type="module"][src^="/assets/portal-"]').count()).toBe(1);
    await screenshot(page, 'portal-client-picker');
    await page.getByRole('link', { name: /Kapoor Holdings/ }).click();
    await page.waitForURL(`${app.url}/clientportal/${a.client.id}`);
    await page.getByRole('combobox', { name: 'Client' }).selectOption(b.client.id);
    await page.waitForURL(`${app.url}/clientportal/${b.client.id}`);
    await page.getByRole('link', { name: 'Send bank statements for Kapoor Family Trust' }).waitFor();
    await screenshot(page, 'portal-switched-client');
    await context.close();

    const visitor = await browser.newContext({ viewport: PHONE });
    const anonymous = await newPage(visitor);
    await anonymous.page.goto(`${app.url}/clientportal/${a.client.id}/documents`);
    // The login keeps the page asked for, to return there once signed in.
    await anonymous.page.waitForURL(
      `${app.url}/clientportal/auth/login?next=${encodeURIComponent(`/clientportal/${a.client.id}/documents`)}`,
    );
    // A staff path from the portal's page is the staff app's page (a full load), which opens its login.
    await anonymous.page.evaluate(() => window.location.assign('/auth/login'));
    await anonymous.page
      .getByRole('button', { name: /sign in|log in/i })
      .first()
      .waitFor();
    expect(await anonymous.page.locator('script[type="module"][src^="/assets/portal-"]').count()).toBe(0);
    await visitor.close();
  });
});
