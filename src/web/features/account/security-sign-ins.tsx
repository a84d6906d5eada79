import { describeUserAgent, SIGN_IN_OUTCOMES, SIGN_INS_PAGE_SIZE } from '@domain/security';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import {
  Badge,
  type BadgeTone,
  Card,
  CardHeader,
  CardTitle,
  EmptyState,
  Pagination,
  Skeleton,
  useFormat,
} from '@web/ui';
import { History } from 'lucide-react';
import { useState } from 'react';
import { trpc } from '../../lib/trpc';

const TONES = {
  'member.sign_in': 'green',
  'member.sign_in_failed': 'yellow',
  'member.locked_out': 'red',
} as const satisfies Record<keyof typeof SIGN_IN_OUTCOMES, BadgeTone>;

/** The member's own recent sign-ins, failures and lock-outs (from the firm's system log). */
export function SecuritySignIns() {
  const [page, setPage] = useState(1);
  const format = useFormat();
  const list = useQuery({
    ...trpc.security.signIns.queryOptions({ page, pageSize: SIGN_INS_PAGE_SIZE }),
    placeholderData: keepPreviousData,
  });
  return (
    <Card aria-labelledby="sign-ins-title">
      <CardHeader>
        <div>
          <CardTitle id="sign-ins-title">Recent sign-ins</CardTitle>
          <p className="text-sm text-muted-fg">Sign-ins to your account and failed attempts, newest first.</p>
        </div>
      </CardHeader>
      {list.isPending ? (
        <div className="flex flex-col gap-3 p-4" aria-busy="true">
          <Skeleton className="h-10" />
          <Skeleton className="h-10" />
        </div>
      ) : !list.data || list.data.total === 0 ? (
        <EmptyState icon={History} title="No sign-ins yet" message="Your next sign-in shows up here." />
      ) : (
        <>
          <ul className="divide-y divide-border" aria-label="Sign-ins">
            {list.data.rows.map((row) => (
              <li key={row.id} className="flex flex-wrap items-center gap-x-3 gap-y-1 px-4 py-2.5 text-sm">
                <Badge tone={TONES[row.action]} className="w-24 justify-center">
                  {SIGN_IN_OUTCOMES[row.action]}
                </Badge>
                <time dateTime={row.at.toISOString()} className="tabular-nums">
                  {format.dateTime(row.at)}
                </time>
                <span className="min-w-0 flex-1 truncate text-muted-fg" title={row.userAgent ?? undefined}>
                  {[describeUserAgent(row.userAgent), row.ip].filter(Boolean).join(' · ')}
                </span>
              </li>
            ))}
          </ul>
          {list.data.total > SIGN_INS_PAGE_SIZE ? (
            <Pagination
              page={page}
              pageSize={SIGN_INS_PAGE_SIZE}
              total={list.data.total}
              onPageChange={setPage}
              disabled={list.isFetching}
              className="border-t border-border"
            />
          ) : null}
        </>
      )}
    </Card>
  );
}
