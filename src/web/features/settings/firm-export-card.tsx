import {
  EXPORT_PASSPHRASE_MIN,
  FIRM_EXPORT_DAYS,
  firmExportDownloadPath,
  type TFirmExportForm,
  type TFirmExportStatus,
  ZFirmExportForm,
} from '@domain/firm-export';
import { zodResolver } from '@hookform/resolvers/zod';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import {
  Badge,
  type BadgeTone,
  Button,
  Card,
  CardContent,
  CardDescription,
  CardHeader,
  CardTitle,
  Checkbox,
  Dialog,
  DialogClose,
  DialogContent,
  Field,
  Input,
  Skeleton,
  toast,
  useFormat,
} from '@web/ui';
import { Download } from 'lucide-react';
import { useState } from 'react';
import { Controller, useForm, useWatch } from 'react-hook-form';
import { trpc } from '../../lib/trpc';
import { saveFile } from '../documents/file-transfer';

const STATUS: Record<TFirmExportStatus, { label: string; tone: BadgeTone }> = {
  queued: { label: 'Waiting', tone: 'grey' },
  running: { label: 'Preparing', tone: 'blue' },
  ready: { label: 'Ready', tone: 'green' },
  failed: { label: 'Failed', tone: 'red' },
  expired: { label: 'Expired', tone: 'light-grey' },
};

/**
 * Firm settings → Export: the owner takes everything of the firm with them. The zip is built in
 * the background (progress here, a notification when it is ready) and kept for a week.
 */
export function FirmExportCard({ isOwner }: { isOwner: boolean }) {
  const [open, setOpen] = useState(false);
  return (
    <Card id="export" aria-labelledby="export-title" className="scroll-mt-4">
      <CardHeader>
        <div>
          <CardTitle id="export-title">Export all data</CardTitle>
          <CardDescription>
            One zip with your clients, contacts, services, engagements, projects, tasks (with comments and
            checklists), reminders and the system log, as CSV and JSON, and every document in its folders.
          </CardDescription>
        </div>
        {isOwner ? <Button onClick={() => setOpen(true)}>Export all data</Button> : null}
      </CardHeader>
      <CardContent>
        {isOwner ? (
          <ExportList />
        ) : (
          <p className="text-sm text-muted-fg">Only the firm’s owner can export all the firm’s data.</p>
        )}
      </CardContent>
      <Dialog open={open} onOpenChange={setOpen}>
        <DialogContent
          title="Export all the firm’s data"
          description={`We prepare the zip in the background and notify you when it is ready. It can be downloaded for ${FIRM_EXPORT_DAYS} days.`}
        >
          {open ? <ExportForm onStarted={() => setOpen(false)} /> : null}
        </DialogContent>
      </Dialog>
    </Card>
  );
}

function ExportList() {
  const format = useFormat();
  const list = useQuery({
    ...trpc.firmExport.list.queryOptions(),
    // Progress while one is being prepared; nothing to poll otherwise.
    refetchInterval: (query) =>
      query.state.data?.some((e) => e.status === 'queued' || e.status === 'running') ? 1000 : false,
  });
  if (!list.data) return <Skeleton className="h-16" />;
  if (list.data.length === 0) return <p className="text-sm text-muted-fg">No exports yet.</p>;
  return (
    <ul className="flex flex-col divide-y divide-border" aria-label="Exports">
      {list.data.map((e) => {
        const status = STATUS[e.status];
        const busy = e.status === 'queued' || e.status === 'running';
        const percent = e.total ? Math.min(100, Math.round((e.done / e.total) * 100)) : 0;
        return (
          <li key={e.id} className="flex flex-wrap items-center gap-3 py-3" data-testid="firm-export">
            <div className="flex min-w-0 flex-1 flex-col gap-1">
              <div className="flex flex-wrap items-center gap-2 text-sm">
                <span className="font-medium">Started {format.dateTime(e.createdAt)}</span>
                <Badge tone={status.tone}>{status.label}</Badge>
                {e.includeVault ? <Badge tone="outline">With vault (encrypted)</Badge> : null}
              </div>
              {busy ? (
                <div className="flex items-center gap-2">
                  <div
                    role="progressbar"
                    aria-label="Export progress"
                    aria-valuemin={0}
                    aria-valuemax={100}
                    aria-valuenow={percent}
                    className="h-2 w-48 overflow-hidden rounded-full bg-muted"
                  >
                    <div className="h-full bg-primary transition-all" style={{ width: `${percent}%` }} />
                  </div>
                  <span className="text-xs text-muted-fg">
                    {percent}% · {e.step ?? 'Waiting to start'}
                  </span>
                </div>
              ) : e.status === 'ready' && e.expiresAt ? (
                <span className="text-xs text-muted-fg">
                  {format.bytes(e.size ?? 0)} · available until {format.dateTime(e.expiresAt)}
                </span>
              ) : e.status === 'failed' ? (
                <span className="text-xs text-danger">Something went wrong. Start the export again.</span>
              ) : null}
            </div>
            {e.status === 'ready' ? (
              <Button
                variant="outline"
                size="sm"
                onClick={() =>
                  saveFile(firmExportDownloadPath(e.id), 'firm-export.zip').catch((error: Error) =>
                    toast.error(error.message),
                  )
                }
              >
                <Download aria-hidden /> Download
              </Button>
            ) : null}
          </li>
        );
      })}
    </ul>
  );
}

function ExportForm({ onStarted }: { onStarted: () => void }) {
  const queryClient = useQueryClient();
  const form = useForm<TFirmExportForm>({
    resolver: zodResolver(ZFirmExportForm),
    defaultValues: { includeVault: false, password: '', passphrase: '', confirm: '' },
  });
  const includeVault = useWatch({ control: form.control, name: 'includeVault' });
  const start = useMutation(
    trpc.firmExport.start.mutationOptions({
      onSuccess: async () => {
        await queryClient.invalidateQueries({ queryKey: trpc.firmExport.list.queryKey() });
        toast.success('Export started: we will notify you when it is ready');
        onStarted();
      },
    }),
  );
  const { errors } = form.formState;
  return (
    <form
      noValidate
      className="flex flex-col gap-4"
      onSubmit={form.handleSubmit((v) =>
        start.mutate(
          v.includeVault
            ? { includeVault: true, password: v.password, passphrase: v.passphrase }
            : { includeVault: false },
        ),
      )}
    >
      <Controller
        control={form.control}
        name="includeVault"
        render={({ field }) => (
          <Checkbox
            label="Include the vault’s passwords"
            checked={field.value}
            onCheckedChange={(checked) => field.onChange(checked === true)}
          />
        )}
      />
      {includeVault ? (
        <>
          <p className="text-sm text-muted-fg">
            The passwords go in one file encrypted with a passphrase you choose (OpenPGP). Open it with{' '}
            <code>gpg --decrypt vault-passwords.csv.gpg</code>. We cannot recover the passphrase.
          </p>
          <Field label="Your password" required error={errors.password?.message}>
            <Input type="password" autoComplete="current-password" {...form.register('password')} />
          </Field>
          <Field
            label="Passphrase for the vault file"
            required
            hint={`At least ${EXPORT_PASSPHRASE_MIN} characters`}
            error={errors.passphrase?.message}
          >
            <Input type="password" autoComplete="new-password" {...form.register('passphrase')} />
          </Field>
          <Field label="Passphrase again" required error={errors.confirm?.message}>
            <Input type="password" autoComplete="new-password" {...form.register('confirm')} />
          </Field>
        </>
      ) : null}
      <div className="flex justify-end gap-2 pt-1">
        <DialogClose asChild>
          <Button variant="outline">Cancel</Button>
        </DialogClose>
        <Button type="submit" loading={start.isPending}>
          Start export
        </Button>
      </div>
    </form>
  );
}
