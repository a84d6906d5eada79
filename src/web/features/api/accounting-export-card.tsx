import { ACCOUNTING_EXPORT_PATH, ZAccountingExportQuery } from '@domain/accounting-export';
import { ERROR_TOAST_MS } from '@domain/constants';
import { Link } from '@tanstack/react-router';
import {
  Button,
  Card,
  CardContent,
  CardDescription,
  CardHeader,
  CardTitle,
  DatePicker,
  Field,
  toast,
} from '@web/ui';
import { useState } from 'react';
import { saveFile } from '../documents/file-transfer';

/** A period's invoices, credit notes and payments for the firm's books: Tally XML or a CSV journal. */
export function AccountingExportCard() {
  const [from, setFrom] = useState<string | null>(null);
  const [to, setTo] = useState<string | null>(null);
  const [error, setError] = useState<string | undefined>();
  const [busy, setBusy] = useState(false);
  async function run(format: 'tally' | 'csv') {
    const parsed = ZAccountingExportQuery.safeParse({ from: from ?? '', to: to ?? '', format });
    if (!parsed.success) {
      setError(from && to ? parsed.error.issues[0]?.message : 'Choose the first and last day of the period');
      return;
    }
    setError(undefined);
    setBusy(true);
    try {
      const query = new URLSearchParams(parsed.data).toString();
      await saveFile(
        `${ACCOUNTING_EXPORT_PATH}?${query}`,
        `accounting.${format === 'tally' ? 'xml' : 'csv'}`,
      );
      toast.success('Export started: your browser saves the file');
    } catch (e) {
      toast.error(e instanceof Error ? e.message : 'Network Error', { duration: ERROR_TOAST_MS });
    } finally {
      setBusy(false);
    }
  }
  return (
    <Card>
      <CardHeader>
        <div>
          <CardTitle>Accounting export</CardTitle>
          <CardDescription>
            A period&apos;s invoices, credit notes and payments as Tally vouchers or a CSV journal. The
            ledgers they post to are named in the{' '}
            <Link to="/admin/settings/billing" className="underline underline-offset-2">
              billing settings
            </Link>
            .
          </CardDescription>
        </div>
      </CardHeader>
      <CardContent className="flex flex-col gap-4 md:flex-row md:items-start">
        <Field label="From" error={error}>
          <DatePicker value={from} onChange={setFrom} clearable={false} />
        </Field>
        <Field label="To">
          <DatePicker value={to} onChange={setTo} clearable={false} />
        </Field>
        <div className="flex gap-2 md:mt-6">
          <Button type="button" variant="outline" disabled={busy} onClick={() => run('tally')}>
            Tally XML
          </Button>
          <Button type="button" variant="outline" disabled={busy} onClick={() => run('csv')}>
            CSV
          </Button>
        </div>
      </CardContent>
    </Card>
  );
}
