import { eq } from 'drizzle-orm';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { addDays, todayIn } from '../../src/domain/days';
import { clients, orgs, projects, taskAssignees, tasks } from '../../src/server/db/schema';
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

const faults = (errors: string[]) => errors.filter((e) => !/40[0134]/.test(e));

/** What the greeting must say for a browser in this time zone right now (SPEC.md §5). */
function expectedGreeting(timeZone: string) {
  const hour = Number(
    new Intl.DateTimeFormat('en-GB', { hour: 'numeric', hourCycle: 'h23', timeZone }).format(new Date()),
  );
  return hour < 12 ? 'Good Morning' : hour < 18 ? 'Good Afternoon' : 'Good Evening';
}

describe('the home dashboard', () => {
  it('greets by first name, links each count to its filtered list, and counts a completed task on reload', async () => {
    const firm = await app.seedFirm('Iyer & Co');
    const orgId = firm.org.id;
    await app.db.update(orgs).set({ timeZone: 'Asia/Kolkata' }).where(eq(orgs.id, orgId));
    const today = todayIn('Asia/Kolkata');
    const [client] = await app.db
      .insert(clients)
      .values({ orgId, code: 'M1', name: 'Mehta Textiles' })
      .returning();
    if (!client) throw new Error('client not created');
    const [late, dueToday] = await app.db
      .insert(tasks)
      .values([
        { orgId, clientId: client.id, title: 'File GSTR-3B for October', dueDate: addDays(today, -2) },
        {
          orgId,
          clientId: client.id,
          title: 'Collect bank statements',
          dueDate: today,
          status: 'IN_PROGRESS',
        },
      ])
      .returning();
    if (!late || !dueToday) throw new Error('tasks not created');
    await app.db.insert(taskAssignees).values([
      { orgId, taskId: late.id, memberId: firm.owner.id, dueDate: late.dueDate },
      { orgId, taskId: dueToday.id, memberId: firm.owner.id, dueDate: dueToday.dueDate },
    ]);
    await app.db.insert(projects).values({
      orgId,
      clientId: client.id,
      name: 'GST Return · Oct 2026',
      dueDate: addDays(today, 3),
      status: 'IN_PROGRESS',
    });

    const timeZone = 'Asia/Tokyo';
    const context = await browser.newContext({
      viewport: { width: 1280, height: 900 },
      timezoneId: timeZone,
    });
    await signInWithCookies(context, app, firm.owner);
    const { page, console } = await newPage(context);
    await page.goto(`${app.url}/`);
    await page.getByRole('heading', { level: 1, name: `${expectedGreeting(timeZone)}, Olivia` }).waitFor();

    const counts = page.getByRole('list', { name: 'Counts' });
    const myOverdue = counts.getByRole('link', { name: 'My overdue tasks 1' });
    await myOverdue.waitFor();
    await expect.poll(() => myOverdue.getAttribute('href')).toBe('/tasks?view=mine&status=OVERDUE');
    await expect
      .poll(() => counts.getByRole('link', { name: 'Overdue tasks in the firm 1' }).getAttribute('href'))
      .toBe('/tasks?view=all&status=OVERDUE');
    await expect
      .poll(() => counts.getByRole('link', { name: 'My open tasks 2' }).getAttribute('href'))
      .toBe('/tasks?view=mine&status=SCHEDULED,IN_PROGRESS,IN_REVIEW');
    await expect
      .poll(() => counts.getByRole('link', { name: 'Overdue projects 0' }).getAttribute('href'))
      .toBe('/projects?status=OVERDUE');
    await expect
      .poll(() => counts.getByRole('link', { name: 'Projects due this week 1' }).getAttribute('href'))
      .toBe(`/projects?dueFrom=${today}&dueTo=${addDays(today, 6)}`);

    // Today's task links to the task; the upcoming project is listed with its client.
    const dueTodayCard = page.getByRole('region', { name: 'Due today' });
    const taskLink = dueTodayCard.getByRole('link', { name: /Collect bank statements/ });
    await expect.poll(() => taskLink.getAttribute('href')).toBe(`/tasks?task=${dueToday.id}`);
    await page
      .getByRole('region', { name: 'Upcoming deadlines' })
      .getByRole('link', { name: /GST Return · Oct 2026.*Mehta Textiles/ })
      .waitFor();
    await screenshot(page, 'home-dashboard');

    // The work gets done elsewhere; the count follows on reload.
    await app.db
      .update(tasks)
      .set({ status: 'COMPLETED', completedDate: new Date() })
      .where(eq(tasks.id, late.id));
    await page.reload();
    await counts.getByRole('link', { name: 'My overdue tasks 0' }).waitFor();
    await counts.getByRole('link', { name: 'My open tasks 1' }).waitFor();

    // A count opens its list inside the app.
    await counts.getByRole('link', { name: 'My overdue tasks 0' }).click();
    await page.waitForURL((url) => url.pathname === '/tasks');
    const opened = new URL(page.url()).searchParams;
    expect([opened.get('view'), opened.get('status')]).toEqual(['mine', 'OVERDUE']);
    expect(faults(console.errors)).toEqual([]);
    await context.close();
  });

  it('shows a new firm friendly empty states', async () => {
    const firm = await app.seedFirm('Fresh Start');
    const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
    await signInWithCookies(context, app, firm.owner);
    const { page, console } = await newPage(context);
    await page.goto(`${app.url}/`);
    await page.getByText('Nothing due today').waitFor();
    await page.getByText('No deadlines in the next two weeks').waitFor();
    await page.getByRole('link', { name: 'My overdue tasks 0' }).waitFor();
    await screenshot(page, 'home-empty');
    expect(faults(console.errors)).toEqual([]);
    await context.close();
  });
});
