import { registerReminderJobs } from '../features/reminders/delivery';
import { purgeSettled } from './queue';
import { every, registerJob } from './registry';

export const JOBS_PURGE = 'jobs.purge';
const WEEK_MS = 7 * 24 * 60 * 60_000;

/**
 * Every job kind this server runs, registered once at start. A feature with background work adds
 * its registration here.
 */
export function registerJobs() {
  registerJob(JOBS_PURGE, async (_job, ctx) => {
    await purgeSettled(ctx.db, new Date(Date.now() - WEEK_MS));
  });
  every(JOBS_PURGE, 60 * 60_000);

  registerReminderJobs();

  // Recurring work (projects generated from clients' engagements, one per period) goes here:
  //   registerJob('projects.generateRecurring', async (_job, ctx) => generateRecurringProjects(ctx.db));
  //   every('projects.generateRecurring', 15 * 60_000);
  // The generator must stay idempotent (its unique key per engagement and period), since a run
  // whose worker dies is run again after the lease.
}
