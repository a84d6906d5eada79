import { z } from 'zod';
import { zString } from './fields';

/** How long a finished export can be downloaded; a job removes it then. */
export const FIRM_EXPORT_DAYS = 7;
export const FIRM_EXPORT_STATUSES = ['queued', 'running', 'ready', 'failed', 'expired'] as const;
export type TFirmExportStatus = (typeof FIRM_EXPORT_STATUSES)[number];

export const firmExportDownloadPath = (id: string) => `/api/firm-exports/${id}/download`;

/** The shortest passphrase that protects the vault's passwords in an export. */
export const EXPORT_PASSPHRASE_MIN = 12;

/**
 * Start an export. The vault's passwords go in only when the owner asks, re-enters their own
 * password and sets a passphrase that encrypts them (OpenPGP, readable with `gpg --decrypt`).
 */
export const ZStartFirmExport = z.discriminatedUnion('includeVault', [
  z.object({ includeVault: z.literal(false) }),
  z.object({
    includeVault: z.literal(true),
    password: zString().min(1, 'Enter your password').max(256),
    passphrase: zString()
      .min(EXPORT_PASSPHRASE_MIN, `Use at least ${EXPORT_PASSPHRASE_MIN} characters`)
      .max(256, 'Use at most 256 characters'),
  }),
]);
export type TStartFirmExport = z.input<typeof ZStartFirmExport>;

/** The form: the passphrase typed twice. */
export const ZFirmExportForm = z
  .object({
    includeVault: z.boolean(),
    password: zString().max(256),
    passphrase: zString().max(256),
    confirm: zString().max(256),
  })
  .superRefine((v, ctx) => {
    if (!v.includeVault) return;
    if (!v.password) ctx.addIssue({ code: 'custom', path: ['password'], message: 'Enter your password' });
    if (v.passphrase.length < EXPORT_PASSPHRASE_MIN)
      ctx.addIssue({
        code: 'custom',
        path: ['passphrase'],
        message: `Use at least ${EXPORT_PASSPHRASE_MIN} characters`,
      });
    if (v.confirm !== v.passphrase)
      ctx.addIssue({ code: 'custom', path: ['confirm'], message: 'The passphrases do not match' });
  });
export type TFirmExportForm = z.infer<typeof ZFirmExportForm>;
