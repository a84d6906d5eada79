import PDFDocument from 'pdfkit';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PROPOSAL_FOLLOW_UP, PROPOSAL_SEAL, registerProposalJobs } from '../../src/server/features/proposals';
import { createWorker } from '../../src/server/jobs/worker';
import { seedPortalUser } from '../../src/server/test/portal';
import { signInToPortal, signInWithCookies, startApp, type TE2eApp } from './support/app';
import { launchBrowser, newPage, screenshot } from './support/browser';

// Proposals end to end (issue 37): staff write a template and a proposal for a prospect with two
// signers in turn, preview and send it; each signer opens the mailed link on a 375 px phone, gets
// a code by mail, chooses a package and signs (one typed, one drawn); the prospect becomes a client
// and the chosen services appear as its engagements.

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

async function noSidewaysScroll(page: Page) {
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(
    page.viewportSize()?.width ?? 0,
  );
}

async function signOnPhone(email: string, signature: 'typed' | 'drawn', name: string) {
  const context = await browser.newContext({
    viewport: { width: 375, height: 800 },
    isMobile: true,
    hasTouch: true,
  });
  const { page, console } = await newPage(context);
  const linkPath = await app.lastLinkPath(email);
  await page.goto(`${app.url}${linkPath}${new URL((await app.lastMail(email)).notes.link ?? '').search}`);
  await page.getByRole('button', { name: 'Email me a code' }).click();
  await page.getByText('Check your email').waitFor();
  const codeMail = await app.lastMail(email, 2);
  await page.getByLabel('Code').fill(codeMail.notes.code ?? '');
  await page.getByRole('button', { name: 'Open the document' }).click();
  await page.getByRole('heading', { name: 'Your signature' }).waitFor();
  await noSidewaysScroll(page);
  if (signature === 'typed') {
    await page.getByRole('radio', { name: /Complete/ }).check();
    await page.getByLabel('Type your full name').fill(name);
  } else {
    // The second signer signs the first's choice: the package is fixed.
    expect(await page.getByRole('radio', { name: /Complete/ }).isChecked()).toBe(true);
    await page.getByRole('button', { name: 'Draw' }).click();
    const pad = page.getByRole('img', { name: 'Draw your signature' });
    const box = await pad.boundingBox();
    if (!box) throw new Error('no pad');
    await page.mouse.move(box.x + 20, box.y + 60);
    await page.mouse.down();
    await page.mouse.move(box.x + 80, box.y + 30, { steps: 5 });
    await page.mouse.move(box.x + 160, box.y + 80, { steps: 5 });
    await page.mouse.up();
  }
  await page.getByRole('checkbox', { name: /I agree to sign this document electronically/ }).click();
  await screenshot(page, `proposal-sign-${signature}-375`);
  await page.getByRole('button', { name: 'Sign', exact: true }).click();
  await page.getByText('Thank you: you have signed').waitFor();
  await screenshot(page, `proposal-signed-${signature}-375`);
  expect(console.errors).toEqual([]);
  await context.close();
}

describe('proposals in the browser', () => {
  it('a prospect signs on a phone with two signers in turn, and the engagements appear', async () => {
    const firm = await app.seedFirm('Kapoor & Co');
    const api = app.client(firm.owner.token);
    await api.services.create.mutate({
      name: 'Monthly bookkeeping',
      code: 'BK',
      frequency: 'monthly',
      dueDateRule: { dayOfMonth: 10, monthsAfterPeriod: 1 },
      defaultFee: '1500',
    });
    const prospect = await api.clients.create.mutate({
      code: 'P001',
      name: 'Rao Textiles',
      email: 'asha@rao.test',
      prospect: true,
    });

    const staffContext = await browser.newContext({ viewport: { width: 1280, height: 900 } });
    await signInWithCookies(staffContext, app, firm.owner);
    const { page: staff, console: staffConsole } = await newPage(staffContext);

    // The template: a letter, two packages, saved.
    await staff.goto(`${app.url}/admin/templates/proposals`);
    await staff.getByText('No proposal templates yet').waitFor();
    await staff.getByRole('link', { name: 'New template' }).click();
    await staff.getByLabel('Template name').fill('Small business');
    await staff.getByLabel('Package 1 name').fill('Essential');
    await staff.getByRole('combobox', { name: 'Package 1 service 1: service' }).click();
    await staff.getByRole('option', { name: 'Monthly bookkeeping' }).click();
    await staff.getByRole('button', { name: 'Add a package' }).click();
    await staff.getByLabel('Package 2 name').fill('Complete');
    await staff.getByRole('combobox', { name: 'Package 2 service 1: service' }).click();
    await staff.getByRole('option', { name: 'Monthly bookkeeping' }).click();
    await staff.getByLabel('Package 2 service 1: fee').fill('2400');
    // After acceptance: the first invoice for the accepted fixed fee, as a draft.
    await staff.getByRole('combobox', { name: 'Invoice' }).click();
    await staff
      .getByRole('option', { name: 'First invoice for the accepted fixed fees, as a draft' })
      .click();
    await staff.getByRole('button', { name: 'Save template' }).click();
    await staff.waitForURL(/\/admin\/templates\/proposals\/[0-9a-f-]{36}$/);
    await screenshot(staff, 'proposal-template-editor');

    // The proposal for the prospect, from the template, with a second signer, in turn.
    await staff.goto(`${app.url}/proposals`);
    await staff.getByRole('button', { name: 'New proposal' }).click();
    await staff.getByLabel('Client or prospect').fill('Rao');
    await staff.getByRole('button', { name: 'Rao Textiles (prospect)' }).click();
    await staff.getByRole('combobox', { name: 'Template' }).click();
    await staff.getByRole('option', { name: 'Small business' }).click();
    await staff.getByLabel("First signer's name").fill('Asha Rao');
    await staff.getByRole('button', { name: 'Write proposal' }).click();
    await staff.waitForURL(/\/proposals\/[0-9a-f-]{36}$/);
    await staff.getByRole('button', { name: 'Add a signer' }).click();
    await staff.getByLabel('Signer 2 name').fill('Vikram Rao');
    await staff.getByLabel('Signer 2 email').fill('vikram@rao.test');
    await staff.getByRole('combobox', { name: 'Signing order' }).click();
    await staff.getByRole('option', { name: 'Each signs in turn, in the order listed' }).click();
    await staff.getByRole('button', { name: 'Save draft' }).click();
    await staff.getByText('Draft saved').waitFor();
    // The preview is the letter as the signer will read it, placeholders filled.
    await staff.getByText('Dear Asha Rao').first().waitFor();
    await screenshot(staff, 'proposal-draft-preview');
    await staff.getByRole('button', { name: 'Send', exact: true }).click();
    await staff.getByText('Awaiting signature').waitFor();

    await signOnPhone('asha@rao.test', 'typed', 'Asha Rao');
    await signOnPhone('vikram@rao.test', 'drawn', 'Vikram Rao');

    // Accepted; the prospect is a client with the engagement of the chosen package.
    // The follow-up job drafts the first invoice; the proposal links to it.
    registerProposalJobs(app.storage);
    const followUp = createWorker(
      { db: app.db, config: app.config, mailer: app.mailer, log: { info() {}, warn() {}, error() {} } },
      { pollMs: 10, kinds: [PROPOSAL_FOLLOW_UP] },
    );
    for (let n = await followUp.tick(); n > 0; n = await followUp.tick()) {}
    await staff.reload();
    await staff.getByText('Accepted').first().waitFor();
    await staff.getByRole('heading', { name: 'After acceptance' }).waitFor();
    await staff.getByRole('link', { name: 'Draft invoice (draft)' }).waitFor();
    await screenshot(staff, 'proposal-accepted');
    await staff.goto(`${app.url}/clients/${prospect.id}/services`);
    await staff.getByText('Monthly bookkeeping').first().waitFor();
    await staff.getByText(/2,400/).first().waitFor();
    await screenshot(staff, 'proposal-engagements');
    expect(staffConsole.errors).toEqual([]);
    // Closed here, not left to the file's end: an open page's connections keep the server's close waiting.
    await staffContext.close();
  });

  it('staff send a client PDF for signature; the portal user signs it in the portal on a phone; the sealed copy is filed', async () => {
    const firm = await app.seedFirm('Seal Signers LLP');
    const api = app.client(firm.owner.token);
    const client = await api.clients.create.mutate({ code: 'B001', name: 'Board Works Ltd' });
    const portal = await seedPortalUser(app, {
      orgId: firm.org.id,
      clientIds: [client.id],
      name: 'Meera Iyer',
      email: 'meera@boardworks.test',
    });
    const root = await api.documents.open.mutate({ clientId: client.id });
    const folder = await api.documents.createFolder.mutate({ parentId: root.id, name: 'Resolutions' });
    await api.documents.setFolderVisibility.mutate({ folderId: folder.id, visibleToPortal: true });
    const pdf = await new Promise<Buffer>((resolve) => {
      const doc = new PDFDocument({ size: 'A4' });
      const chunks: Buffer[] = [];
      doc.on('data', (c: Buffer) => chunks.push(c));
      doc.on('end', () => resolve(Buffer.concat(chunks)));
      doc.text('Board resolution 12: the company opens a bank account.');
      doc.end();
    });
    const form = new FormData();
    form.append('file', new Blob([new Uint8Array(pdf)], { type: 'application/pdf' }), 'Resolution 12.pdf');
    const up = await fetch(`${app.url}/api/documents/upload?folderId=${folder.id}&share=true`, {
      method: 'POST',
      headers: { authorization: `Bearer ${firm.owner.token}` },
      body: form,
    });
    expect(up.status).toBe(201);

    // Staff: the file's menu, the dialog, the portal user picked as the signer.
    const staffContext = await browser.newContext({ viewport: { width: 1280, height: 900 } });
    await signInWithCookies(staffContext, app, firm.owner);
    const { page: staff, console: staffConsole } = await newPage(staffContext);
    await staff.goto(`${app.url}/clients/${client.id}/documents/${folder.id}`);
    await staff.getByRole('button', { name: 'Actions for Resolution 12.pdf' }).click();
    await staff.getByRole('menuitem', { name: 'Request signatures' }).click();
    await staff.getByRole('combobox', { name: 'Signer 1: choose a portal user or contact' }).click();
    await staff.getByRole('option', { name: /Meera Iyer <meera@boardworks.test> \(portal\)/ }).click();
    expect(await staff.getByLabel('Signer 1 email').inputValue()).toBe('meera@boardworks.test');
    await screenshot(staff, 'signature-request-dialog');
    await staff.getByRole('button', { name: 'Send for signature' }).click();
    await staff.waitForURL(/\/proposals\/[0-9a-f-]{36}$/);
    await staff.getByText('Document to sign').waitFor();
    await staff.getByText('Awaiting signature').first().waitFor();

    // The portal user, signed in on a phone: the banner, the list, the page, no code.
    const phone = await browser.newContext({
      viewport: { width: 375, height: 800 },
      isMobile: true,
      hasTouch: true,
    });
    await signInToPortal(phone, app, portal.token);
    const { page, console } = await newPage(phone);
    await page.goto(`${app.url}/clientportal/${client.id}`);
    await page.getByRole('link', { name: /To sign: 1 document waits/ }).click();
    await page.waitForURL(new RegExp(`/clientportal/${client.id}/sign$`));
    // Exact: the home page's recent documents have "Resolution 12.pdf" too.
    await page
      .getByRole('list', { name: 'To sign' })
      .getByRole('link', { name: 'Resolution 12', exact: true })
      .click();
    await page.getByRole('heading', { name: 'Your signature' }).waitFor();
    await page.getByRole('link', { name: 'Download' }).waitFor();
    await noSidewaysScroll(page);
    await page.getByLabel('Type your full name').fill('Meera Iyer');
    await page.getByRole('checkbox', { name: /I agree to sign this document electronically/ }).click();
    await screenshot(page, 'portal-sign-375');
    await page.getByRole('button', { name: 'Sign', exact: true }).click();
    await page.getByText('Thank you: you have signed').waitFor();
    expect(console.errors).toEqual([]);
    await phone.close();

    // The seal job files the signed copy next to the original; the proposal page links to it.
    registerProposalJobs(app.storage);
    const worker = createWorker(
      { db: app.db, config: app.config, mailer: app.mailer, log: { info() {}, warn() {}, error() {} } },
      { pollMs: 10, kinds: [PROPOSAL_SEAL] },
    );
    for (let n = await worker.tick(); n > 0; n = await worker.tick()) {}
    await staff.reload();
    await staff.getByText('Accepted').first().waitFor();
    await staff
      .getByRole('link', { name: /Signed document: Resolution 12 \(signed [0-9a-f]{6}\)\.pdf/ })
      .click();
    await staff.waitForURL(new RegExp(`/clients/${client.id}/documents/${folder.id}$`));
    await staff
      .getByText(/Resolution 12 \(signed [0-9a-f]{6}\)\.pdf/)
      .first()
      .waitFor();
    await screenshot(staff, 'signature-request-filed');
    expect(staffConsole.errors).toEqual([]);
    // Closed here, not left to the file's end: an open page's connections keep the server's close waiting.
    await staffContext.close();
  });
});
