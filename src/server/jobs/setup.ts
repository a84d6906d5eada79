import { registerAutomationJobs } from '../features/automations';
import { INVOICE_MAIL, registerInvoiceMailJob, registerPaymentReminderJobs } from '../features/billing';
import { registerBroadcastJobs, registerQueueingJob } from '../features/broadcasts';
import { purgeClientImports } from '../features/clients';
import { purgeTrash, sweepOrphanFiles } from '../features/documents';
import { registerFirmExportJobs } from '../features/firm-export';
import { registerLeaveJobs } from '../features/leave';
import { registerMessageJobs } from '../features/messages';
import { purgePortalAuth } from '../features/portal-auth';
import { defaultThrough, generateRecurringProjects } from '../features/projects';
import { registerProposalJobs } from '../features/proposals';
import { registerReminderJobs } from '../features/reminders';
import { registerRequestChaseJob, registerRequestJobs } from '../features/requests';
import { audit } from '../features/system-log';
import { registerTimesheetJobs } from '../features/timesheets';
import { registerWebhookJobs } from '../features/webhooks';
import type { TStorage } from '../files/storage';
import { MAIL_SEND, registerMailJob } from '../mail';
import { purgeSettled } from './queue';
import { every, registerJob } from './registry';

export const JOBS_PURGE = 'jobs.purge';
export const PROJECTS_RECURRING = 'projects.generateRecurring';
export const DOCUMENTS_PURGE = 'documents.purgeTrash';
export const DOCUMENTS_ORPHANS = 'documents.sweepOrphans';
export const PORTAL_PURGE = 'portal.purgeSessions';
export const CLIENT_IMPORTS_PURGE = 'clients.purgeImports';
const WEEK_MS = 7 * 24 * 60 * 60_000;

/** The jobs that mail what a change queued: a message written in full, and an invoice with its PDF. */
export const MAIL_JOB_KINDS = [MAIL_SEND, INVOICE_MAIL] as const;

/**
 * Every mail a change causes (invitations, notifications, invoices): queued in the change's
 * transaction and sent by these jobs. One that still fails after its last attempt is in the firm's
 * system log.
 */
export function registerMailJobs() {
  registerInvoiceMailJob();
  registerMailJob({
    async onFailed(mail, ctx) {
      if (!mail.orgId) return;
      const attempts = `${mail.attempts} attempt${mail.attempts === 1 ? '' : 's'}`;
      await audit(
        ctx.db,
        { kind: 'system', orgId: mail.orgId },
        {
          action: 'mail.failed',
          recordType: 'mail',
          summary: `Could not send “${mail.subject}” to ${mail.to} after ${attempts}: ${mail.error}`.slice(
            0,
            2000,
          ),
        },
      );
    },
  });
}

/**
 * Every job kind this server runs, registered once at start. A feature with background work adds
 * its registration here.
 */
export function registerJobs(storage: TStorage) {
  registerJob(JOBS_PURGE, async (_job, ctx) => {
    await purgeSettled(ctx.db, new Date(Date.now() - WEEK_MS));
  });
  every(JOBS_PURGE, 60 * 60_000);

  registerReminderJobs();

  // Automations: the rules each recorded event starts, once per rule and event.
  registerAutomationJobs();
  // Webhook deliveries, an attempt a job (features/webhooks).
  registerWebhookJobs();

  // Payment reminders on each firm's schedule, sent as client reminders (so they keep a delivery history).
  registerPaymentReminderJobs();

  // Client requests chased on each request's schedule, as client reminders to its recipients.
  registerRequestChaseJob();
  registerMessageJobs();

  // Broadcasts: one pump per firm at the firm's pace, the scan that restarts a stopped one, and the
  // queueing of a large audience a chunk at a time.
  registerBroadcastJobs();
  registerQueueingJob();

  // Leave: yearly allocations, monthly accruals, the year end and carried-balance expiry, per firm.
  registerLeaveJobs();

  // Timers: the end-of-day notice and the 16-hour stop.
  registerTimesheetJobs();

  registerMailJobs();

  // The owner's whole-firm export, and the removal of exports past their days.
  registerFirmExportJobs(storage);

  // Recurring work: each run creates what the next horizon of periods owes. Idempotent by its
  // unique key per engagement and period, so a run whose worker dies simply runs again.
  registerJob(PROJECTS_RECURRING, async (_job, ctx) => {
    const result = await generateRecurringProjects(ctx.db, { through: defaultThrough() });
    if (result.projects) ctx.log.info(result, 'recurring projects generated');
  });
  every(PROJECTS_RECURRING, 60 * 60_000);

  // Client requests a project's template sends by itself, its lead time before the due date.
  registerRequestJobs();

  // Proposals: the signed PDF, sealed with the firm's certificate after the last signature.
  registerProposalJobs(storage);

  // The documents' trash: rows and bytes older than the retention go, a batch per pass.
  registerJob(DOCUMENTS_PURGE, async (_job, ctx) => {
    for (let pass = 0; pass < 100; pass++) {
      const result = await purgeTrash(ctx.db, storage, new Date());
      if (!result.more) break;
    }
  });
  every(DOCUMENTS_PURGE, 6 * 60 * 60_000);

  // Stored bytes no document version names (uploads cut off by a crash or a kill, files whose row
  // never committed), once they are a day old: see sweepOrphanFiles.
  registerJob(DOCUMENTS_ORPHANS, async (_job, ctx) => {
    const result = await sweepOrphanFiles(ctx.db, storage, new Date());
    if (result.removed) ctx.log.info(result, 'orphaned stored files removed');
  });
  every(DOCUMENTS_ORPHANS, 6 * 60 * 60_000);

  // The portal's sign-in leftovers: expired sessions, old one-time codes, stale rate-limit counters.
  registerJob(PORTAL_PURGE, async (_job, ctx) => {
    await purgePortalAuth(ctx.db);
  });
  every(PORTAL_PURGE, 60 * 60_000);

  // Client imports finished or abandoned a week ago, and their staged rows.
  registerJob(CLIENT_IMPORTS_PURGE, async (_job, ctx) => {
    let imports = 0;
    for (let pass = 0; pass < 100; pass++) {
      const result = await purgeClientImports(ctx.db, new Date());
      imports += result.imports;
      if (!result.more) break;
    }
    if (imports) ctx.log.info({ imports }, 'old client imports deleted');
  });
  every(CLIENT_IMPORTS_PURGE, 6 * 60 * 60_000);
}
