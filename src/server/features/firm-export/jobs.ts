import { z } from 'zod';
import type { TStorage } from '../../files/storage';
import { every, PermanentJobError, registerJob } from '../../jobs/registry';
import { buildFirmExport } from './build';
import {
  claimExport,
  expireFirmExports,
  FIRM_EXPORT_EXPIRE_JOB,
  FIRM_EXPORT_JOB,
  failExport,
  finishExport,
} from './service';

const ZPayload = z.object({ exportId: z.uuid() });

/**
 * The export is built by the queue (any instance, retried from the start if its worker dies) and
 * the files of expired exports are removed hourly.
 */
export function registerFirmExportJobs(storage: TStorage) {
  registerJob(
    FIRM_EXPORT_JOB,
    async (job, ctx) => {
      const payload = ZPayload.safeParse(job.payload);
      if (!payload.success) throw new PermanentJobError('The export job names no export');
      const row = await claimExport(ctx.db, ctx.config, payload.data.exportId);
      if (!row) return;
      const result = await buildFirmExport(ctx.db, storage, ctx.config, {
        exportId: row.id,
        orgId: row.orgId,
        includeVault: row.includeVault,
        passphrase: row.passphrase,
        signal: job.signal,
      });
      // Taken over while the last bytes went in: the other worker's zip is the export, not this one.
      if (job.signal?.aborted) {
        await storage.delete(result.storageKey).catch(() => {});
        job.signal.throwIfAborted();
      }
      await finishExport(ctx.db, row, result);
      ctx.log.info({ exportId: row.id, size: result.size }, 'firm export ready');
    },
    {
      // The default lease, renewed while the export runs: a crashed worker's export starts again
      // from the beginning within about half a minute, not after hours.
      backoff: { baseMs: 60_000, capMs: 30 * 60_000 },
      async onFailed(job, error, ctx) {
        const payload = ZPayload.safeParse(job.payload);
        if (payload.success) await failExport(ctx.db, payload.data.exportId, error);
      },
    },
  );

  registerJob(FIRM_EXPORT_EXPIRE_JOB, async (_job, ctx) => {
    for (let pass = 0; pass < 100; pass++) {
      const result = await expireFirmExports(ctx.db, storage, new Date());
      if (!result.more) break;
    }
  });
  every(FIRM_EXPORT_EXPIRE_JOB, 60 * 60_000);
}
