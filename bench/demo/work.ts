import { createHash } from 'node:crypto';
import { sql } from 'drizzle-orm';
import { addDays, todayIn } from '../../src/domain/days';
import type { TStoredStatus } from '../../src/domain/status';
import type { TDb } from '../../src/server/db/client';
import { rowsOf } from '../../src/server/db/sql';
import { defaultThrough, generateRecurringProjects } from '../../src/server/features/projects';
import type { TDemoClient } from './clients';
import type { TClock } from './clock';
import type { TDemoPerson } from './people';
import type { TPersonSession } from './session';

// The firm's months of work, replayed a week at a time. Each week the recurring-work job runs (the
// product's, with that week as its clock) and the people move their tasks the way the task screens
// do: started a few days before the due date, some sent for review, most done on time, some late,
// a few still open. A project is completed with its last task (and shown in progress when its work
// is under way at the end). Every move is a call to the product, stamped by the replay clock with
// its week.

const DAY_MS = 86_400_000;
const FIRM_TIME_ZONE = 'Asia/Kolkata';
const dayOf = (at: Date) => at.toISOString().slice(0, 10);
const BULK = 500;

const COMMENTS = [
  'Client has shared the documents on email, uploading them now.',
  'Waiting for the bank statement for the last week of the period.',
  'Two invoices do not match the portal; I have asked the client.',
  'Called the client, they will send the remaining papers by Friday.',
];
const REVIEW_NOTES = [
  'Ready for your review, {name}.',
  '{name}, please look at the input credit before we file.',
  'Done from my side. {name}, can you review today?',
];
const STANDALONE = [
  { title: 'Reply to the tax notice', priority: 'high' as const },
  { title: 'Follow up on the unpaid invoice', priority: 'medium' as const },
  { title: 'Update KYC details', priority: 'low' as const },
  { title: 'Renew the digital signature', priority: 'medium' as const },
  { title: 'Call the client about missing invoices', priority: 'medium' as const },
  { title: 'Check the advance-tax estimate', priority: 'high' as const },
];

/** A number from an id, the same every week: decides how that task's (or project's) work goes. */
const hashOf = (id: string) => createHash('sha1').update(id).digest().readUInt32BE(0);

/** 10:00 to 17:00 in Mumbai on that calendar day. */
const workingHour = (day: string, h: number) =>
  new Date(Date.parse(`${day}T04:30:00Z`) + (h % 8) * 3_600_000);

type TOpenTask = {
  id: string;
  position: number;
  status: TStoredStatus;
  due: string;
  projectId: string | null;
  clientId: string | null;
  assignee: string | null;
};
type TMove = {
  at: Date;
  taskId: string;
  status: TStoredStatus;
  actor: string;
  projectId: string | null;
  clientId: string | null;
};

/**
 * When each of a task's moves happens, in order. Most work is started two to five days before it
 * is done, a third of it sent for review on the way, and done up to three days before its due date.
 * A project's tasks share its fate, dealt in the order its work comes up: one project in ten runs
 * late (all its tasks some days after their dates), one in twenty-five stalls at one of its tasks
 * and is still open (the late work on the dashboard), the tasks after it waiting.
 */
function movesOf(task: TOpenTask, actor: string, fate: number): TMove[] {
  const h = hashOf(task.id);
  const f = hashOf(task.projectId ?? task.id);
  const delay = fate % 10 === 3 ? 1 + (f % 12) : -(h % 4);
  const stallsAt = fate % 25 === 24 ? (task.projectId ? (f >>> 8) % 4 : 0) : Number.POSITIVE_INFINITY;
  if (task.position > stallsAt) return [];
  const doneDay = addDays(task.due, delay);
  const startBefore = 2 + ((h >>> 4) % 4);
  // Stalled tasks wait in turn on the client (in progress) and on their review.
  const reviewed = task.position === stallsAt ? Math.floor(fate / 25) % 2 === 1 : (h >>> 8) % 3 === 0;
  const moves: TMove[] = [];
  const move = (day: string, status: TStoredStatus, hour: number) =>
    moves.push({
      at: workingHour(day, hour),
      taskId: task.id,
      status,
      actor,
      projectId: task.projectId,
      clientId: task.clientId,
    });
  const rank = { SCHEDULED: 0, IN_PROGRESS: 1, IN_REVIEW: 2, COMPLETED: 3 } as const;
  if (rank[task.status] < 1) move(addDays(doneDay, -startBefore), 'IN_PROGRESS', h);
  if (reviewed && rank[task.status] < 2) {
    move(addDays(doneDay, -(1 + ((h >>> 12) % (startBefore - 1)))), 'IN_REVIEW', h + 1);
  }
  if (task.position < stallsAt) move(doneDay, 'COMPLETED', h + 2);
  return moves;
}

function startOneIfNoneUnderWay(
  open: TOpenTask[],
  weekEnd: Map<string, TMove>,
  actorOf: (t: TOpenTask) => string,
  end: Date,
) {
  const standing = (t: TOpenTask) => weekEnd.get(t.id)?.status ?? t.status;
  if (open.some((t) => standing(t) === 'IN_PROGRESS')) return;
  const next = open.find((t) => standing(t) === 'SCHEDULED');
  if (!next) return;
  weekEnd.set(next.id, {
    at: new Date(end.getTime() - 60 * 60_000),
    taskId: next.id,
    status: 'IN_PROGRESS',
    actor: actorOf(next),
    projectId: next.projectId,
    clientId: next.clientId,
  });
}

export type TWorkContext = {
  db: TDb;
  orgId: string;
  clock: TClock;
  people: TDemoPerson[];
  clients: TDemoClient[];
  sessionOf: (memberId: string) => TPersonSession;
  /** Runs after the week's work, inside its window (reminders, documents…). */
  onWeek?: (week: { from: Date; to: Date }) => Promise<void>;
  /** Mail queued by the week's changes goes out within it. */
  deliverMail: () => Promise<unknown>;
};

/** The open tasks that may move before `before`: due within a week after it at the latest. */
async function openTasks(db: TDb, orgId: string, before: string): Promise<TOpenTask[]> {
  const result = await db.execute(sql`
    select t.id, t.position, t.status, t.due_date::text as due, t.project_id as "projectId", t.client_id as "clientId",
      (select a.member_id from task_assignees a where a.org_id = t.org_id and a.task_id = t.id
       order by a.member_id limit 1) as assignee
    from tasks t
    where t.org_id = ${orgId}::uuid and t.status <> 'COMPLETED' and t.due_date <= ${before}::date
    order by t.due_date, t.id`);
  return rowsOf<TOpenTask>(result);
}

/**
 * Projects to move on: completed with their last task; in progress with their first, for those
 * still open at the end (an older project's in-between status has long been overtaken).
 */
async function projectMoves(db: TDb, orgId: string, projectIds: string[] | 'all') {
  const which =
    projectIds === 'all'
      ? sql`p.status <> 'COMPLETED'`
      : sql`p.id in (select jsonb_array_elements_text(${JSON.stringify(projectIds)}::jsonb)::uuid)`;
  const result = await db.execute(sql`
    select p.id, p.status, p.client_id as "clientId",
      bool_and(t.status = 'COMPLETED') as done, bool_or(t.status <> 'SCHEDULED') as started
    from projects p join tasks t on t.org_id = p.org_id and t.project_id = p.id
    where p.org_id = ${orgId}::uuid and ${which}
    group by p.id`);
  return rowsOf<{ id: string; status: TStoredStatus; clientId: string; done: boolean; started: boolean }>(
    result,
  );
}

/** The weeks from `from` to `to`, each replayed in its own window of the clock. */
export async function replayWork(
  ctx: TWorkContext,
  from: Date,
  to: Date,
  options: { comments: number; tasksPerWeek: number },
) {
  const { db, orgId } = ctx;
  const owner = ctx.people.find((p) => p.role === 'Owner') as TDemoPerson;
  const clientById = new Map(ctx.clients.map((c) => [c.id, c]));
  const weeks = Math.max(1, Math.ceil((to.getTime() - from.getTime()) / (7 * DAY_MS)));
  const commentsPerWeek = Math.max(1, Math.ceil(options.comments / weeks));
  let standalone = 0;
  // Each project's (or lone task's) place in the order its work came up: its fate.
  const fates = new Map<string, number>();
  const fateOf = (key: string) => {
    if (!fates.has(key)) fates.set(key, fates.size);
    return fates.get(key) as number;
  };
  for (let w = 0; w < weeks; w++) {
    const start = new Date(from.getTime() + w * 7 * DAY_MS);
    const end = w === weeks - 1 ? to : new Date(start.getTime() + 7 * DAY_MS);
    // The last three weeks: what is under way now shows as under way.
    const closing = end.getTime() >= to.getTime() - 21 * DAY_MS;
    await ctx.clock.during(start, end, async () => {
      // The recurring-work job, as it runs through the week.
      await generateRecurringProjects(db, { orgId, through: defaultThrough(end), now: end });
      await newTasks(ctx, start, options.tasksPerWeek, standalone++);
      const today = todayIn(FIRM_TIME_ZONE, end);
      // Where each task stands at the end of the week: its last move in it.
      const weekEnd = new Map<string, TMove>();
      const open = await openTasks(db, orgId, addDays(today, 8));
      const actorOf = (t: TOpenTask) =>
        t.assignee ??
        (t.clientId ? clientById.get(t.clientId) : undefined)?.preparer.memberId ??
        owner.memberId;
      for (const t of open) {
        const moves = movesOf(t, actorOf(t), fateOf(t.projectId ?? t.id)).filter((m) => m.at < end);
        const final = moves[moves.length - 1];
        if (final) weekEnd.set(t.id, final);
      }
      // The firm shows work under way today, whatever the calendar: on a day when no task's dates
      // put one in progress, the one due soonest has just been started.
      if (w === weeks - 1) startOneIfNoneUnderWay(open, weekEnd, actorOf, end);
      // Each person moves their tasks in one go per status, earliest work first.
      const groups = new Map<string, TMove[]>();
      for (const m of weekEnd.values()) {
        const key = `${m.actor}:${m.status}`;
        groups.set(key, [...(groups.get(key) ?? []), m]);
      }
      const ordered = [...groups.values()]
        .map((g) => g.sort((a, b) => a.at.getTime() - b.at.getTime()))
        .sort((a, b) => (a[0] as TMove).at.getTime() - (b[0] as TMove).at.getTime());
      let comments = commentsPerWeek;
      for (const group of ordered) {
        const first = group[0] as TMove;
        const api = ctx.sessionOf(first.actor).api;
        const ids = group.map((m) => m.taskId);
        for (let i = 0; i < ids.length; i += BULK) {
          await api.tasks.bulk({
            ids: ids.slice(i, i + BULK),
            action: { kind: 'setStatus', status: first.status },
          });
        }
        // Work sent for review says so to the reviewer; work under way gets a note now and then.
        const client = first.clientId ? clientById.get(first.clientId) : undefined;
        if (client && (first.status === 'IN_REVIEW' || (first.status === 'IN_PROGRESS' && comments > 0))) {
          if (first.status === 'IN_PROGRESS') comments -= 1;
          await comment(ctx, first.actor, first.taskId, first.status, client);
        }
      }
      const touched = [
        ...new Set([...weekEnd.values()].map((m) => m.projectId).filter((p): p is string => !!p)),
      ];
      for (const p of await projectMoves(db, orgId, closing ? 'all' : touched)) {
        const next: TStoredStatus | null = p.done
          ? 'COMPLETED'
          : closing && p.started && p.status === 'SCHEDULED'
            ? 'IN_PROGRESS'
            : null;
        if (!next || next === p.status) continue;
        const manager = clientById.get(p.clientId)?.reviewer.memberId ?? owner.memberId;
        await ctx.sessionOf(manager).api.projects.setStatus({ projectId: p.id, status: next });
      }
      await ctx.onWeek?.({ from: start, to: end });
      await ctx.deliverMail();
    });
  }
}

/** A comment from the person working on the task; one sent for review names the reviewer. */
async function comment(
  ctx: TWorkContext,
  actor: string,
  taskId: string,
  status: TStoredStatus,
  client: TDemoClient,
) {
  const h = hashOf(taskId);
  const reviewer = client.reviewer;
  const api = ctx.sessionOf(actor).api;
  if (status === 'IN_REVIEW' && reviewer.memberId !== actor) {
    const note = (REVIEW_NOTES[h % REVIEW_NOTES.length] as string).replace('{name}', `@${reviewer.name}`);
    await api.tasks.comments.add({ taskId, body: note, mentions: [reviewer.memberId] });
  } else {
    await api.tasks.comments.add({ taskId, body: COMMENTS[h % COMMENTS.length] as string, mentions: [] });
  }
}

const OWN = [
  { title: 'Approve the fee proposal', priority: 'medium' as const },
  { title: 'Sign off the year-end review', priority: 'high' as const },
];

/**
 * Work that comes up during the week outside the recurring projects: a manager puts a task on a
 * client for its preparer (who is notified), with themselves as the reviewer; now and then the
 * owner notes one for herself.
 */
async function newTasks(ctx: TWorkContext, weekStart: Date, count: number, week: number) {
  const owner = ctx.people.find((p) => p.role === 'Owner');
  for (let i = 0; i < count; i++) {
    const n = week * count + i;
    const client = ctx.clients[(n * 37) % ctx.clients.length];
    if (!client) return;
    const dueDate = addDays(dayOf(weekStart), 3 + (n % 9));
    if (owner && n % 3 === 2) {
      const what = OWN[n % OWN.length] as (typeof OWN)[number];
      await ctx.sessionOf(owner.memberId).api.tasks.create({
        title: what.title,
        clientId: client.id,
        priority: what.priority,
        dueDate,
        assigneeIds: [owner.memberId],
      });
      continue;
    }
    const what = STANDALONE[n % STANDALONE.length] as (typeof STANDALONE)[number];
    await ctx.sessionOf(client.reviewer.memberId).api.tasks.create({
      title: what.title,
      clientId: client.id,
      priority: what.priority,
      dueDate,
      assigneeIds: [client.preparer.memberId],
      reviewerId: client.reviewer.memberId,
    });
  }
}
