import { parseCsv } from '@domain/client-import';
import { HOLIDAY_PART_LABELS, holidaysFromCsv } from '@domain/leave';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import {
  Button,
  DialogClose,
  DialogContent,
  Dialog as DialogRoot,
  Field,
  Select,
  Textarea,
  toast,
  useFormat,
} from '@web/ui';
import { useEffect, useState } from 'react';
import { trpc } from '../../lib/trpc';
import { ALL_OFFICES } from './holiday-dialog';

const EXAMPLE = 'date,name,part\n2026-01-26,Republic Day,full\n2026-03-04,Holi,second half';

/** Holidays from a CSV (a file or pasted): the rows it would add, or each line's problem, before importing. */
export function HolidayImportDialog({
  open,
  offices,
  onClose,
}: {
  open: boolean;
  offices: string[];
  onClose: () => void;
}) {
  const queryClient = useQueryClient();
  const format = useFormat();
  const [csv, setCsv] = useState('');
  const [office, setOffice] = useState(ALL_OFFICES);
  useEffect(() => {
    if (open) {
      setCsv('');
      setOffice(ALL_OFFICES);
    }
  }, [open]);
  const read = csv.trim() ? holidaysFromCsv(parseCsv(csv)) : null;
  const importing = useMutation(
    trpc.leave.holidays.import.mutationOptions({
      onSuccess: ({ added, skipped }) => {
        toast.success(
          `Imported ${added} holiday${added === 1 ? '' : 's'}${skipped ? ` (${skipped} already there)` : ''}`,
        );
        onClose();
        void queryClient.invalidateQueries({ queryKey: trpc.leave.pathKey() });
      },
    }),
  );
  const ready = read !== null && read.errors.length === 0 && read.holidays.length > 0;
  return (
    <DialogRoot open={open} onOpenChange={(o) => !o && onClose()}>
      <DialogContent
        title="Import holidays"
        description="A CSV with the columns date (YYYY-MM-DD), name and, if needed, part (full, first half, second half)."
        footer={
          <>
            <DialogClose asChild>
              <Button variant="outline">Cancel</Button>
            </DialogClose>
            <Button
              disabled={!ready}
              loading={importing.isPending}
              onClick={() => importing.mutate({ csv, office: office === ALL_OFFICES ? null : office })}
            >
              {ready
                ? `Import ${read.holidays.length} holiday${read.holidays.length === 1 ? '' : 's'}`
                : 'Import'}
            </Button>
          </>
        }
      >
        <div className="flex flex-col gap-4">
          <Field label="CSV file">
            <input
              type="file"
              accept=".csv,text/csv"
              className="text-sm file:mr-3 file:rounded-md file:border file:border-border file:bg-surface file:px-3 file:py-1.5 file:text-sm"
              onChange={async (e) => {
                const file = e.target.files?.[0];
                if (file) setCsv(await file.text());
              }}
            />
          </Field>
          <Field label="Or paste it">
            <Textarea rows={5} placeholder={EXAMPLE} value={csv} onChange={(e) => setCsv(e.target.value)} />
          </Field>
          <Field label="Office">
            <Select
              value={office}
              onValueChange={setOffice}
              options={[
                { value: ALL_OFFICES, label: 'Every office' },
                ...offices.map((o) => ({ value: o, label: o })),
              ]}
            />
          </Field>
          {read && read.errors.length > 0 ? (
            <div role="alert" className="rounded-md border border-danger/40 p-3 text-sm">
              <p className="mb-1 font-medium text-danger">Fix these lines first:</p>
              <ul className="list-disc pl-5">
                {read.errors.map((e) => (
                  <li key={e}>{e}</li>
                ))}
              </ul>
            </div>
          ) : null}
          {read && read.errors.length === 0 && read.holidays.length > 0 ? (
            <div className="max-h-56 overflow-y-auto rounded-md border border-border">
              <table className="w-full text-sm">
                <caption className="sr-only">Holidays to import</caption>
                <thead className="bg-muted/50 text-left text-xs text-muted-fg">
                  <tr>
                    <th className="px-3 py-1.5 font-medium">Date</th>
                    <th className="px-3 py-1.5 font-medium">Name</th>
                    <th className="px-3 py-1.5 font-medium">Part</th>
                  </tr>
                </thead>
                <tbody>
                  {read.holidays.map((h) => (
                    <tr key={`${h.date}-${h.name}`} className="border-t border-border">
                      <td className="px-3 py-1.5 whitespace-nowrap">{format.date(h.date)}</td>
                      <td className="px-3 py-1.5">{h.name}</td>
                      <td className="px-3 py-1.5">{HOLIDAY_PART_LABELS[h.part ?? 'full']}</td>
                    </tr>
                  ))}
                </tbody>
              </table>
            </div>
          ) : null}
        </div>
      </DialogContent>
    </DialogRoot>
  );
}
