// The automations feature's public surface: other features, the root router and the composition root
// import from here, never from the files beside it.

import { AUTOMATION_EVENT_JOB } from '../../events';
import { every, registerJob } from '../../jobs/registry';
import { AUTOMATION_DUE_SCAN, scanDueDates } from './due';
import { processEvent } from './engine';
import { AUTOMATION_NO_REPLY_SCAN, scanNoReply } from './no-reply';

export { AUTOMATION_EVENT_JOB, emitAutomationEvent, type TAutomationEvent } from '../../events';
export { AUTOMATION_DUE_SCAN, scanDueDates } from './due';
export { evaluate, processEvent } from './engine';
export { AUTOMATION_NO_REPLY_SCAN, scanNoReply } from './no-reply';
export { automationsRouter, stagesRouter } from './router';

/** The job that runs the rules an event starts (queued with the event, in its transaction). */
export function registerAutomationJobs() {
  registerJob(
    AUTOMATION_EVENT_JOB,
    async (job, ctx) => {
      const { eventId } = (job.payload ?? {}) as { eventId?: string };
      if (eventId) await processEvent(ctx.db, eventId, job, { config: ctx.config });
    },
    { backoff: { baseMs: 10_000, capMs: 10 * 60_000 } },
  );
  // "N days before/after the due date": each hour, the projects whose day has come.
  registerJob(AUTOMATION_DUE_SCAN, async (_job, ctx) => {
    const { events } = await scanDueDates(ctx.db);
    if (events) ctx.log.info({ events }, 'automation due-date events recorded');
  });
  every(AUTOMATION_DUE_SCAN, 60 * 60_000);
  // "No client reply for N days": each hour, the conversations whose wait has reached N days.
  registerJob(AUTOMATION_NO_REPLY_SCAN, async (_job, ctx) => {
    const { events } = await scanNoReply(ctx.db);
    if (events) ctx.log.info({ events }, 'automation no-reply events recorded');
  });
  every(AUTOMATION_NO_REPLY_SCAN, 60 * 60_000);
}
