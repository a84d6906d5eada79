import type { inferRouterOutputs } from '@trpc/server';
import { DrawerContent, useFormat } from '@web/ui';
import { ArrowRight } from 'lucide-react';
import type { AppRouter } from '../../lib/trpc';

export type TSystemLogEntry = inferRouterOutputs<AppRouter>['systemLog']['list']['rows'][number];

export function actorLabel(entry: TSystemLogEntry): string {
  if (entry.actorName && entry.actorKind === 'client_user') {
    return `${entry.actorName} (${entry.actorClientName ?? 'client'})`;
  }
  if (entry.actorName) return entry.actorName;
  if (entry.actorKind === 'system') return 'System';
  if (entry.actorKind === 'automation') return 'Automation';
  if (entry.actorKind === 'client_user') return 'Client user';
  return 'Former member';
}

function formatValue(value: unknown): string {
  if (value === null || value === undefined || value === '') return '—';
  if (Array.isArray(value)) return value.length ? value.map((v) => formatValue(v)).join(', ') : '(none)';
  if (typeof value === 'object') return JSON.stringify(value);
  if (typeof value === 'boolean') return value ? 'Yes' : 'No';
  return String(value);
}

function Detail({ label, children }: { label: string; children: React.ReactNode }) {
  return (
    <div className="grid grid-cols-[8rem_1fr] gap-2 py-1.5">
      <dt className="text-muted-fg">{label}</dt>
      <dd className="min-w-0 break-words text-fg">{children}</dd>
    </div>
  );
}

/** One log entry: who did what to which record, and each changed field before → after. */
export function SystemLogDrawer({ entry }: { entry: TSystemLogEntry }) {
  const format = useFormat();
  const changes = Object.entries(entry.changes ?? {});
  return (
    <DrawerContent size="lg" title={entry.summary} description={format.dateTime(entry.at, { seconds: true })}>
      <dl className="divide-y divide-border">
        <Detail label="Who">{actorLabel(entry)}</Detail>
        <Detail label="Action">
          <code className="text-xs">{entry.action}</code>
        </Detail>
        <Detail label="Record">
          {entry.recordType}
          {entry.recordId ? (
            <span className="ml-1 font-mono text-xs text-muted-fg">{entry.recordId}</span>
          ) : null}
        </Detail>
        <Detail label="IP address">{entry.ip ?? '—'}</Detail>
        <Detail label="Browser">{entry.userAgent ?? '—'}</Detail>
      </dl>
      <h3 className="mt-6 mb-2 text-sm font-semibold">Changes</h3>
      {changes.length === 0 ? (
        <p className="text-muted-fg">This entry records no field changes.</p>
      ) : (
        <div className="overflow-x-auto rounded-md border border-border">
          <table className="w-full text-sm">
            <caption className="sr-only">Changed fields, before and after</caption>
            <thead className="bg-muted/50 text-xs text-muted-fg">
              <tr>
                <th scope="col" className="px-3 py-2 text-left font-medium">
                  Field
                </th>
                <th scope="col" className="px-3 py-2 text-left font-medium">
                  Before
                </th>
                <th scope="col" className="w-6" aria-label="becomes" />
                <th scope="col" className="px-3 py-2 text-left font-medium">
                  After
                </th>
              </tr>
            </thead>
            <tbody>
              {changes.map(([field, change]) => (
                <tr key={field} className="border-t border-border align-top">
                  <th scope="row" className="px-3 py-2 text-left font-medium">
                    {field}
                  </th>
                  <td
                    className={`px-3 py-2 break-words text-muted-fg ${
                      change.from === null || change.from === undefined
                        ? ''
                        : 'line-through decoration-muted-fg/40'
                    }`}
                  >
                    {formatValue(change.from)}
                  </td>
                  <td className="py-2 text-muted-fg">
                    <ArrowRight aria-hidden="true" className="size-3.5" />
                  </td>
                  <td className="px-3 py-2 break-words">{formatValue(change.to)}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
    </DrawerContent>
  );
}
