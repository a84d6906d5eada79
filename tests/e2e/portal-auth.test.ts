import { eq } from 'drizzle-orm';
import type { Browser, BrowserContext } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PORTAL_LOGIN_COOKIE } from '../../src/domain/web-config';
import { PORTAL_SESSION_COOKIE, revokePortalSessionsOf } from '../../src/server/auth';
import { clients, clientUserClients, clientUsers, portalSessions } from '../../src/server/db/schema';
import { seedPortalClient } from '../../src/server/test/portal-world';
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

// Expected failed calls (the wrong code and the 401s this test provokes) are not faults.
const faults = (errors: string[]) => errors.filter((e) => !/40[013]/.test(e));

async function portalCookies(context: BrowserContext) {
  const all = await context.cookies();
  return {
    session: all.find((c) => c.name === PORTAL_SESSION_COOKIE),
    companion: all.find((c) => c.name === PORTAL_LOGIN_COOKIE),
  };
}

describe('client portal sign-in in the browser', () => {
  it('staff invite a client user, who accepts, signs in with a code at 375 px, uploads a document and completes a to-do the firm sees, and a dead session leads to the login', async () => {
    const firm = await app.seedFirm('Mehta & Co');
    // A client with a folder shared with the portal and a to-do for the client.
    const seeded = await seedPortalClient(app, firm, 'Kapoor Logistics');
    const { client } = seeded;
    const email = 'priya@kapoor.test';

    // Staff: the Portal users tab, empty at first, then the invitation.
    const staffContext = await browser.newContext({ viewport: { width: 1280, height: 800 } });
    await signInWithCookies(staffContext, app, firm.owner);
    const { page: staff, console: staffConsole } = await newPage(staffContext);
    await staff.goto(`${app.url}/clients/${client.id}`);
    await staff
      .getByRole('navigation', { name: 'Client sections' })
      .getByRole('link', { name: 'Portal users' })
      .click();
    await staff.waitForURL(`${app.url}/clients/${client.id}/client-users`);
    await staff.getByText('No one uses the portal for this client yet').waitFor();
    await screenshot(staff, 'portal-users-empty');
    await staff.getByRole('button', { name: 'Invite to portal' }).click();
    const dialog = staff.getByRole('dialog', { name: 'Invite to the portal' });
    await dialog.getByRole('button', { name: 'Send invitation' }).click();
    await dialog.getByText('Enter their name').waitFor();
    await dialog.getByLabel('Name').fill('Priya Kapoor');
    await dialog.getByLabel('Email').fill(email);
    await dialog.getByLabel('Phone').fill('+91 98200 00000');
    await screenshot(staff, 'portal-users-invite-dialog');
    await dialog.getByRole('button', { name: 'Send invitation' }).click();
    await staff.getByText(`Invitation sent to ${email}`).waitFor();
    const table = staff.getByRole('table', { name: 'Portal users' });
    const row = table.getByRole('row', { name: /Priya Kapoor/ });
    await expect.poll(() => row.getByText('Invited').count()).toBe(1);
    await row.getByText(/Expires in 7 days/).waitFor();
    await screenshot(staff, 'portal-users-invited');

    // The client user opens the mailed link on a phone, in a browser of their own.
    const link = await app.lastLinkPath(email);
    expect(link).toMatch(/^\/clientportal\/auth\/invite\/[A-Za-z0-9_-]{43}$/);
    const phone = await browser.newContext({ viewport: { width: 375, height: 800 } });
    const { page, console: portalConsole } = await newPage(phone);
    await page.goto(`${app.url}${link}`);
    await page.getByRole('heading', { name: 'Welcome, Priya Kapoor' }).waitFor();
    await page.getByText('Kapoor Logistics', { exact: true }).waitFor();
    await screenshot(page, 'portal-invite-375');
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(375);
    await page.getByRole('button', { name: 'Accept invitation' }).click();
    // One client: the portal's index goes straight on to that client's home.
    await page.waitForURL(`${app.url}/clientportal/${client.id}`);
    let cookies = await portalCookies(phone);
    expect(cookies.session?.httpOnly).toBe(true);
    expect(cookies.session?.sameSite).toBe('Strict');
    expect(cookies.companion?.httpOnly).toBe(false);

    // Signing out ends the session on the server and lands on the portal login.
    await page.goto(`${app.url}/clientportal/auth/logout`);
    await page.waitForURL(`${app.url}/clientportal/auth/login`);
    await page.getByRole('heading', { name: 'Sign in to your client portal' }).waitFor();
    cookies = await portalCookies(phone);
    expect(cookies.session).toBeUndefined();
    expect(cookies.companion).toBeUndefined();
    const live = await app.db.select().from(portalSessions).where(eq(portalSessions.email, email));
    expect(live.every((s) => s.revokedAt !== null)).toBe(true);

    // Signing in again: the email, then the code from the outbox.
    await screenshot(page, 'portal-login-email-375');
    await page.getByRole('button', { name: 'Email me a code' }).click();
    await page.getByText('Enter an email address').waitFor();
    // The shared schema (fetched on demand) checks the field as it is typed once a submit failed.
    expect(await page.getByLabel('Email').evaluate((input) => input === document.activeElement)).toBe(true);
    await page.getByLabel('Email').fill('priya@');
    await page.getByText('Enter a valid email address').waitFor();
    await page.getByLabel('Email').fill(email);
    await page.getByText('Enter a valid email address').waitFor({ state: 'detached' });
    await page.getByRole('button', { name: 'Email me a code' }).click();
    await page.getByRole('heading', { name: 'Check your email' }).waitFor();
    await page.getByText(`If ${email} has access to a client portal`).waitFor();
    await screenshot(page, 'portal-login-code-375');
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(375);
    const code = (await app.lastMail(email)).notes.code ?? '';
    expect(code).toMatch(/^[0-9]{6}$/);
    // A wrong code first: it says so and how many tries are left.
    await page.getByLabel('Sign-in code').fill(code === '000000' ? '111111' : '000000');
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.getByText('That code is not right. 4 attempts left.').first().waitFor();
    await screenshot(page, 'portal-login-wrong-code-375');
    await page.getByLabel('Sign-in code').fill(code);
    await page.getByRole('button', { name: 'Sign in' }).click();
    // One client: the portal's index goes straight on to that client's home.
    await page.waitForURL(`${app.url}/clientportal/${client.id}`);
    cookies = await portalCookies(phone);
    expect(cookies.session?.httpOnly).toBe(true);
    expect(cookies.companion).toBeDefined();

    // Signed in by code, the person does the firm's to-dos: a document uploaded into the shared
    // folder reaches the firm, and the to-do marked done reads Completed for the firm.
    const todo = 'Send bank statements for Kapoor Logistics';
    await page.getByRole('link', { name: todo }).waitFor();
    // Chosen before the folder's listing has arrived (the route's loader checked the folder, the
    // page's own paged read is held here), the upload still lands in this folder.
    let release = () => {};
    const listingHeld = new Promise<void>((resolve) => {
      release = resolve;
    });
    const pagedListing = (url: URL) =>
      url.pathname.includes('clientPortalDocuments.folder') && url.search.includes('pageSize');
    await page.route(pagedListing, async (route) => {
      await listingHeld;
      await route.continue();
    });
    await page.goto(`${app.url}/clientportal/${client.id}/documents/${seeded.shared.id}`);
    await page.getByLabel('Upload files').setInputFiles({
      name: 'itr-v.pdf',
      mimeType: 'application/pdf',
      buffer: Buffer.from('%PDF-1.4 ITR-V acknowledgement'),
    });
    await page
      .getByRole('region', { name: 'Uploads' })
      .locator('[data-upload-status="done"]')
      .waitFor({ timeout: 20_000 });
    // From now on the listing passes at once.
    release();
    await staff.goto(`${app.url}/clients/${client.id}/documents/${seeded.shared.id}`);
    await staff.getByRole('row', { name: /itr-v\.pdf/ }).waitFor();
    await page.goto(`${app.url}/clientportal/${client.id}/tasks`);
    await page.getByRole('link', { name: todo }).click();
    const panel = page.getByRole('dialog', { name: todo });
    await panel.getByRole('button', { name: 'Mark as done' }).click();
    await panel.locator('[data-status="COMPLETED"]').waitFor();
    await staff.goto(`${app.url}/tasks?task=${seeded.task.id}`);
    await staff.getByRole('dialog', { name: todo }).locator('[data-status="COMPLETED"]').waitFor();

    // Staff see the person active, with a last sign-in.
    await staff.goto(`${app.url}/clients/${client.id}/client-users`);
    await expect.poll(() => row.getByText('Active').count()).toBe(1);
    await row.getByText(/ago$/).waitFor();
    const [user] = await app.db.select().from(clientUsers).where(eq(clientUsers.email, email));
    expect(user?.lastSignInAt).toBeInstanceOf(Date);

    // Staff disable the person (row menu, confirmed): their session dies on the server. A portal
    // call answers 401 and the cookies go with it, so the portal login stays put instead of
    // bouncing back to the portal.
    await row.getByRole('button', { name: 'Actions for Priya Kapoor' }).click();
    await staff.getByRole('menuitem', { name: 'Disable' }).click();
    const confirmDialog = staff.getByRole('alertdialog', { name: 'Disable Priya Kapoor?' });
    await screenshot(staff, 'portal-users-disable-confirm');
    await confirmDialog.getByRole('button', { name: 'Disable' }).click();
    await staff.getByText('Priya Kapoor is disabled').waitFor();
    await expect.poll(() => row.getByText('Disabled').count()).toBe(1);
    const status = await page.evaluate(async () => (await fetch('/api/trpc/clientPortalProfile.me')).status);
    expect(status).toBe(401);
    cookies = await portalCookies(phone);
    expect(cookies.session).toBeUndefined();
    expect(cookies.companion).toBeUndefined();
    await page.goto(`${app.url}/clientportal/auth/login`);
    await page.getByRole('heading', { name: 'Sign in to your client portal' }).waitFor();
    expect(new URL(page.url()).pathname).toBe('/clientportal/auth/login');

    expect(faults(staffConsole.errors)).toEqual([]);
    expect(faults(portalConsole.errors)).toEqual([]);
    await staffContext.close();
    await phone.close();
  });

  it('a 401 on the portal home sends the browser to the portal login', async () => {
    const firm = await app.seedFirm('Dead Session');
    const [client] = await app.db
      .insert(clients)
      .values({ orgId: firm.org.id, code: 'DS', name: 'Dead Session Ltd' })
      .returning();
    if (!client) throw new Error('client not created');
    const email = 'gone@dead.test';
    const [user] = await app.db
      .insert(clientUsers)
      .values({ orgId: firm.org.id, email, name: 'Gone', status: 'active' })
      .returning();
    if (!user) throw new Error('client user not created');
    await app.db
      .insert(clientUserClients)
      .values({ orgId: firm.org.id, clientUserId: user.id, clientId: client.id });
    const phone = await browser.newContext({ viewport: { width: 375, height: 800 } });
    const { page } = await newPage(phone);
    await page.goto(`${app.url}/clientportal/auth/login`);
    await page.getByLabel('Email').fill(email);
    await page.getByRole('button', { name: 'Email me a code' }).click();
    await page.getByRole('heading', { name: 'Check your email' }).waitFor();
    await page.getByLabel('Sign-in code').fill((await app.lastMail(email)).notes.code ?? '');
    await page.getByRole('button', { name: 'Sign in' }).click();
    // Signed in once the portal has left its login (a bare /clientportal** would match the login
    // page itself, and the revoke below could land before the session exists).
    await page.waitForURL(
      (url) => url.pathname.startsWith('/clientportal/') && !url.pathname.includes('/auth/'),
    );

    await revokePortalSessionsOf(app.db, email);
    await page.goto(`${app.url}/clientportal`);
    await page.waitForURL(`${app.url}/clientportal/auth/login`);
    await page.getByRole('heading', { name: 'Sign in to your client portal' }).waitFor();

    // A deep link opened signed out comes back once the code is in.
    const tasks = `/clientportal/${client.id}/tasks`;
    await page.goto(`${app.url}${tasks}`);
    await page.waitForURL(`${app.url}/clientportal/auth/login?next=${encodeURIComponent(tasks)}`);
    await page.getByLabel('Email').fill(email);
    await page.getByRole('button', { name: 'Email me a code' }).click();
    await page.getByRole('heading', { name: 'Check your email' }).waitFor();
    await page.getByLabel('Sign-in code').fill((await app.lastMail(email, 2)).notes.code ?? '');
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.waitForURL(`${app.url}${tasks}`);
    await phone.close();
  });
});
