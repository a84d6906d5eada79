import { eq } from 'drizzle-orm';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { projects } from '../../src/server/db/schema';
import { AUTOMATION_EVENT_JOB, registerAutomationJobs } from '../../src/server/features/automations';
import { createWorker } from '../../src/server/jobs/worker';
import { seedPortalUser } from '../../src/server/test/portal';
import { seedPortalClient } from '../../src/server/test/portal-world';
import { signInToPortal, signInWithCookies, startApp, type TE2eApp } from './support/app';
import { launchBrowser, newPage, screenshot } from './support/browser';
import { cutOff } from './support/fit';

// Automations (issue 41): the firm writes a rule on /admin/automations and switches it on; the client
// submits a request in the portal; the job queue runs the rule and the project moves to Preparation
// on the board by stage.

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

/** Runs the queued automation jobs, as the server's worker would (test apps run none). */
async function runAutomations() {
  registerAutomationJobs();
  const worker = createWorker(
    { db: app.db, config: app.config, mailer: app.mailer, log: { info() {}, warn() {}, error() {} } },
    { pollMs: 50, kinds: [AUTOMATION_EVENT_JOB] },
  );
  for (let n = await worker.tick(); n > 0; n = await worker.tick()) {}
}

describe('automations', () => {
  it('a rule set up on screen moves the project on the board when the client submits', async () => {
    const firm = await app.seedFirm('Rao & Co');
    const mehta = await seedPortalClient(app, firm, 'Mehta Traders');
    const priya = await seedPortalUser(app, {
      orgId: firm.org.id,
      clientIds: [mehta.client.id],
      name: 'Priya Mehta',
    });
    const api = mehta.api;
    const { id: templateId } = await api.projectTemplates.create.mutate({ name: 'Income tax return' });
    await api.stages.set.mutate({
      templateId,
      stages: ['Waiting on client', 'Preparation', 'Review', 'Filed'].map((name) => ({ name })),
    });
    const project = await api.projects.create.mutate({
      clientId: mehta.client.id,
      name: 'ITR 2026',
      templateId,
      ownerId: firm.owner.id,
      dueDate: '2099-07-31',
    });
    const request = await api.requests.create.mutate({
      clientId: mehta.client.id,
      projectId: project.id,
      title: 'Papers for ITR 2026',
      dueDate: '2099-06-30',
      recipientIds: [priya.user.id],
      sections: [{ title: 'Details', items: [{ key: 'pan', kind: 'short_text', label: 'Your PAN' }] }],
    });

    const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
    await signInWithCookies(context, app, firm.owner);
    const { page, console } = await newPage(context);

    // The board by stage: the project waits on the client.
    await page.goto(`${app.url}/projects?view=stages&templateId=${templateId}`);
    const waiting = page.getByRole('region', { name: 'Waiting on client projects' });
    await waiting.getByRole('link', { name: 'ITR 2026' }).waitFor();

    // The rule, written and switched on.
    await page.goto(`${app.url}/admin/automations`);
    await page.getByText('No rules yet').waitFor();
    await page.getByRole('button', { name: 'New rule' }).click();
    await page.getByLabel('Name').fill('Prepare when the client submits');
    await page.getByRole('combobox', { name: 'Trigger' }).click();
    await page.getByRole('option', { name: 'The client submits a request' }).click();
    await page.getByLabel('Action 1 stage').fill('Preparation');
    await page.getByRole('button', { name: 'Save rule' }).click();
    await page.getByText('Rule saved, switched off').waitFor();
    await page.getByRole('button', { name: 'Preview' }).click();
    await page
      .getByTestId('rule-preview')
      .getByText(/Would have fired 0 times/)
      .waitFor();
    await page.getByRole('switch', { name: 'Prepare when the client submits on' }).click();
    await page.getByText('Rule switched on').waitFor();
    expect(await cutOff(page)).toEqual([]);
    await screenshot(page, 'automations-rule-editor');

    // The client submits on a phone.
    const phoneContext = await browser.newContext({ viewport: { width: 375, height: 800 } });
    await signInToPortal(phoneContext, app, priya.token);
    const { page: phone, console: phoneConsole } = await newPage(phoneContext);
    await phone.goto(`${app.url}/clientportal/${mehta.client.id}/requests/${request.id}`);
    const pan = phone.getByRole('textbox', { name: 'Your PAN' });
    await pan.fill('ABCDE1234F');
    await pan.blur();
    await phone.getByText('1 of 1', { exact: true }).waitFor();
    await phone.getByRole('button', { name: 'Submit to the firm' }).click();
    await phone.getByText('Submitted. The firm will tell you if anything needs fixing.').waitFor();

    // The rule runs through the job queue; the board shows the project in Preparation.
    await runAutomations();
    await page.goto(`${app.url}/projects?view=stages&templateId=${templateId}`);
    const preparation = page.getByRole('region', { name: 'Preparation projects' });
    await preparation.getByRole('link', { name: 'ITR 2026' }).waitFor();
    expect(await cutOff(page)).toEqual([]);
    await screenshot(page, 'automations-stage-board');

    // The run is in the rule's history, and the project's activity says the rule did it.
    await page.goto(`${app.url}/admin/automations`);
    await page.getByRole('button', { name: 'Prepare when the client submits' }).click();
    await page.getByTestId('run-row').getByText('Moved ITR 2026 to Preparation').waitFor();
    await page.goto(`${app.url}/projects/${project.id}`);
    await page.getByText(/to Preparation \(by rule Prepare when the client submits\)/).waitFor();

    await page.getByRole('combobox', { name: 'Stage' }).waitFor();
    await screenshot(page, 'automations-project-stage');

    // The template's stages, renamed on its page.
    await page.goto(`${app.url}/admin/templates/projects/${templateId}`);
    await page.getByLabel('Stage 4').fill('Filed with the department');
    await page.getByRole('button', { name: 'Save stages' }).click();
    await page.getByText('Stages saved').waitFor();
    expect(await cutOff(page)).toEqual([]);
    await screenshot(page, 'automations-template-stages');

    // Moved back by hand from the card's menu, with the keyboard-reachable select.
    await page.goto(`${app.url}/projects?view=stages&templateId=${templateId}`);
    await page.getByRole('combobox', { name: 'Move ITR 2026 to' }).click();
    await page.getByRole('option', { name: 'Move to Review' }).click();
    await page
      .getByRole('region', { name: 'Review projects' })
      .getByRole('link', { name: 'ITR 2026' })
      .waitFor();

    expect(console.errors).toEqual([]);
    expect(phoneConsole.errors).toEqual([]);
  }, 180_000);

  it('a task status rule with conditions, set up on screen, moves the project when a task goes for review', async () => {
    const firm = await app.seedFirm('Iyer Associates');
    const client = await seedPortalClient(app, firm, 'Kumar Textiles');
    const api = client.api;
    const { id: templateId } = await api.projectTemplates.create.mutate({ name: 'GST return' });
    await api.stages.set.mutate({
      templateId,
      stages: ['Waiting on client', 'Preparation', 'Review', 'Filed'].map((name) => ({ name })),
    });
    const service = await api.services.create.mutate({
      name: 'GST quarterly',
      code: 'gst-q',
      frequency: 'quarterly',
    });
    const made = async (name: string, periodKey: string, periodEnd: string) => {
      const project = await api.projects.create.mutate({
        clientId: client.client.id,
        name,
        templateId,
        serviceId: service.id,
        ownerId: firm.owner.id,
        dueDate: '2099-07-31',
      });
      await app.db.update(projects).set({ periodKey, periodEnd }).where(eq(projects.id, project.id));
      const task = await api.tasks.create.mutate({
        title: `Prepare ${name}`,
        clientId: client.client.id,
        projectId: project.id,
      });
      return { projectId: project.id, taskId: task.id };
    };
    const yearEnd = await made('GST Q4 2026', '2026-Q4', '2027-03-31');
    const midYear = await made('GST Q1 2026', '2026-Q1', '2026-06-30');

    const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
    await signInWithCookies(context, app, firm.owner);
    const { page, console } = await newPage(context);
    await page.goto(`${app.url}/admin/automations`);
    await page.getByRole('button', { name: 'New rule' }).click();
    await page.getByLabel('Name').fill('Year-end return to review');
    await page.getByRole('combobox', { name: 'Trigger' }).click();
    await page.getByRole('option', { name: 'A task of the project changes status' }).click();
    await page.getByRole('combobox', { name: 'New status' }).click();
    await page.getByRole('option', { name: 'To In Review' }).click();
    // Every condition the issue names is offered.
    for (const name of ['Client type', 'Client group', 'Client tag', 'Service', 'Assignee', 'Period'])
      await page.getByRole('button', { name, exact: true }).waitFor();
    await page.getByRole('button', { name: 'Service', exact: true }).click();
    await page.getByRole('combobox', { name: 'Service' }).click();
    await page.getByRole('option', { name: 'GST quarterly' }).click();
    await page.getByRole('button', { name: 'Period', exact: true }).click();
    await page.getByRole('combobox', { name: 'Period ends in' }).click();
    await page.getByRole('option', { name: 'Ending in March' }).click();
    await page.getByLabel('Action 1 stage').fill('Review');
    await page.getByRole('button', { name: 'Save rule' }).click();
    await page.getByText('Rule saved, switched off').waitFor();
    await page.getByRole('switch', { name: 'Year-end return to review on' }).click();
    await page.getByText('Rule switched on').waitFor();
    expect(await cutOff(page)).toEqual([]);
    await screenshot(page, 'automations-status-rule-editor');
    const saved = await api.automations.list.query();
    expect(saved.map((r) => [r.name, r.triggerLabel])).toEqual([
      ['Year-end return to review', 'A task of the project moves to In Review'],
    ]);
    const rule = await api.automations.get.query({ ruleId: saved[0]?.id as string });
    expect(rule.trigger).toEqual({ kind: 'task.status_changed', toStatus: 'IN_REVIEW' });
    expect(rule.conditions).toEqual([
      { kind: 'service', serviceIds: [service.id] },
      { kind: 'period', frequencies: ['quarterly'], endMonths: [3] },
    ]);

    // Both projects' tasks go for review; only the year-end quarter moves.
    await api.tasks.bulk.mutate({
      ids: [yearEnd.taskId, midYear.taskId],
      action: { kind: 'setStatus', status: 'IN_REVIEW' },
    });
    await runAutomations();
    await page.goto(`${app.url}/projects?view=stages&templateId=${templateId}`);
    await page
      .getByRole('region', { name: 'Review projects' })
      .getByRole('link', { name: 'GST Q4 2026' })
      .waitFor();
    await page
      .getByRole('region', { name: 'Waiting on client projects' })
      .getByRole('link', { name: 'GST Q1 2026' })
      .waitFor();

    // The template's page lists the rule among those acting on its stages.
    await page.goto(`${app.url}/admin/templates/projects/${templateId}`);
    const card = page.getByRole('list', { name: 'Rules for these stages' });
    await card.getByRole('link', { name: 'Year-end return to review' }).waitFor();
    await card.getByText('On', { exact: true }).waitFor();
    expect(await cutOff(page)).toEqual([]);
    await screenshot(page, 'automations-template-rules');

    // The run history says what it did.
    await page.goto(`${app.url}/admin/automations`);
    await page.getByRole('button', { name: 'Year-end return to review' }).click();
    await page.getByTestId('run-row').getByText('Moved GST Q4 2026 to Review').waitFor();
    await page.getByTestId('rule-row').getByText('Done').waitFor();
    await screenshot(page, 'automations-status-rule-runs');
    expect(console.errors).toEqual([]);
  }, 180_000);
});
