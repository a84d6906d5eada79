import { addDays, format, getDay } from 'date-fns';
import { eq } from 'drizzle-orm';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { roles } from '../../src/server/db/schema';
import { signInWithCookies, startApp, type TE2eApp } from './support/app';
import { launchBrowser, newPage, screenshot } from './support/browser';
import { pickDay } from './support/date-picker';

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

describe('capacity in the browser', () => {
  it('warns when a task is due on a day its assignee is away, offers who is free, and shows the member what falls due in their leave', async () => {
    const firm = await app.seedFirm('Mehta & Co');
    await app.db
      .update(roles)
      .set({ permissions: ['clients.view', 'tasks.view', 'leaves.view', 'leaves.create'] })
      .where(eq(roles.id, firm.roles.staff.id));
    // Sam is away on the next Monday at least two days ahead: inside the home page's fortnight.
    let monday = addDays(new Date(), 2);
    while (getDay(monday) !== 1) monday = addDays(monday, 1);
    const day = format(monday, 'yyyy-MM-dd');

    const admin = app.client(firm.owner.token);
    const staffApi = app.client(firm.staff.token);
    const { id: typeId } = await admin.leave.types.create.mutate({
      name: 'Annual leave',
      unit: 'day',
      allowance: 10,
    });
    await admin.leave.setup.allocate.mutate({
      memberId: firm.staff.id,
      leaveTypeId: typeId,
      year: Number(day.slice(0, 4)),
      amount: 10,
    });
    const request = await staffApi.leave.requests.submit.mutate({
      leaveTypeId: typeId,
      startDate: day,
      endDate: day,
    });
    await admin.leave.requests.decide.mutate({ requestId: request.id, approve: true });
    const gst = await admin.tasks.create.mutate({
      title: 'GST return for Kapoor',
      dueDate: day,
      assigneeIds: [firm.staff.id],
    });

    // The owner makes a task due that Monday and picks Sam: the picker says he is away.
    const owner = await browser.newContext({ viewport: { width: 1280, height: 900 } });
    await signInWithCookies(owner, app, firm.owner);
    const { page, console } = await newPage(owner);
    await page.goto(`${app.url}/tasks`);
    await page.getByRole('button', { name: 'New task' }).first().click();
    const form = page.getByRole('dialog', { name: 'New task' });
    await form.getByRole('textbox', { name: 'Title' }).fill('Payroll for March');
    await pickDay(page, form, 'Due date', day);
    await form.getByRole('button', { name: 'Assignees' }).click();
    const sam = page.getByRole('menuitemcheckbox', { name: /Sam Staff/ });
    await expect.poll(async () => (await sam.textContent()) ?? '').toContain('Away – Annual leave');
    await expect
      .poll(
        async () => (await page.getByRole('menuitemcheckbox', { name: /Olivia Owner/ }).textContent()) ?? '',
      )
      .toContain('8 h free');
    await screenshot(page, 'capacity-assignee-picker');
    // "My tasks" starts the form with the owner herself: hand it to Sam alone.
    await page.getByRole('menuitemcheckbox', { name: /Olivia Owner/ }).click();
    await sam.click();
    await page.keyboard.press('Escape');
    const warning = form.getByRole('status').filter({ hasText: 'is away on' });
    await warning.getByText(/Sam Staff is away on .* \(Annual leave\)\. Free that day:/).waitFor();
    await screenshot(page, 'capacity-assignee-warning');

    // A warning, not a refusal: one click hands the task to who is free instead.
    await warning.getByRole('button', { name: 'Assign Olivia Owner instead' }).click();
    await expect
      .poll(() => form.getByRole('button', { name: 'Assignees' }).textContent())
      .toBe('Olivia Owner');
    await expect.poll(() => warning.count()).toBe(0);
    await form.getByRole('button', { name: 'Create task' }).click();
    await page.getByText('Task created').waitFor();
    await expect
      .poll(async () => {
        const { rows } = await admin.tasks.list.query({ view: 'all' });
        return rows.find((t) => t.title === 'Payroll for March')?.assignees.map((a) => a.name);
      })
      .toEqual(['Olivia Owner']);

    // The drawer warns the same way about a task already with Sam, and the swap saves at once.
    await page.goto(`${app.url}/tasks?task=${gst.id}`);
    const drawer = page.getByRole('dialog', { name: 'GST return for Kapoor' });
    const drawerWarning = drawer.getByRole('status').filter({ hasText: 'is away on' });
    await drawerWarning.getByText(/Sam Staff is away on .* \(Annual leave\)/).waitFor();
    await screenshot(page, 'capacity-drawer-warning');
    await drawerWarning.getByRole('button', { name: 'Assign Olivia Owner instead' }).click();
    await expect
      .poll(async () => (await admin.tasks.get.query({ taskId: gst.id })).assignees.map((a) => a.name))
      .toEqual(['Olivia Owner']);
    await expect.poll(() => drawerWarning.count()).toBe(0);
    await admin.tasks.update.mutate({ taskId: gst.id, patch: { assigneeIds: [firm.staff.id] } });
    expect(faults(console.errors)).toEqual([]);

    // Sam's home: what falls due while he is away, before the leave starts.
    const staff = await browser.newContext({ viewport: { width: 1280, height: 900 } });
    await signInWithCookies(staff, app, firm.staff);
    const { page: s, console: staffConsole } = await newPage(staff);
    await s.goto(`${app.url}/`);
    const card = s.getByRole('region', { name: 'Due while you are away' });
    await card.getByRole('link', { name: /GST return for Kapoor/ }).waitFor();
    await card.getByText(/Annual leave:/).waitFor();
    await screenshot(s, 'capacity-home-away');
    expect(faults(staffConsole.errors)).toEqual([]);
  });
});
