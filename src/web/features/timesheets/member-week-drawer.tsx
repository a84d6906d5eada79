import { formatMinutes } from '@domain/timesheets';
import { useQuery } from '@tanstack/react-query';
import { Badge, Button, Drawer, DrawerContent, Skeleton, useFormat } from '@web/ui';
import { Check, TriangleAlert, Undo2 } from 'lucide-react';
import { trpc } from '../../lib/trpc';
import { WEEK_STATUS_TEXT } from './week-status';

type TProps = {
  weekStart: string;
  memberId: string | undefined;
  onClose: () => void;
  onApprove: (memberId: string) => void;
  onSendBack: (member: { id: string; name: string }) => void;
  approving: boolean;
};

/** A member's week as their approver opens it from the team's row: each day, its flags and entries. */
export function MemberWeekDrawer({ weekStart, memberId, onClose, onApprove, onSendBack, approving }: TProps) {
  const format = useFormat();
  const week = useQuery({
    ...trpc.timesheets.memberWeek.queryOptions({ weekStart, memberId: memberId ?? '' }),
    enabled: !!memberId,
  });
  const data = week.data;
  const decidable = data && !data.refusal;
  return (
    <Drawer open={!!memberId} onOpenChange={(open) => !open && onClose()}>
      <DrawerContent
        size="lg"
        title={data ? `${data.member.name}: week of ${format.date(weekStart)}` : 'Week'}
        description={data ? WEEK_STATUS_TEXT[data.status] : undefined}
        footer={
          decidable && (data.status === 'submitted' || data.status === 'approved') ? (
            <>
              <Button variant="outline" onClick={() => onSendBack(data.member)}>
                <Undo2 aria-hidden /> Send back
              </Button>
              {data.status === 'submitted' ? (
                <Button loading={approving} onClick={() => onApprove(data.member.id)}>
                  <Check aria-hidden /> Approve week
                </Button>
              ) : null}
            </>
          ) : undefined
        }
      >
        {!data ? (
          <Skeleton className="h-64" />
        ) : (
          <div className="flex flex-col gap-5">
            {data.refusal ? (
              <p className="rounded-md border border-border bg-muted p-3 text-sm">{data.refusal}</p>
            ) : null}
            {data.comment ? <p className="text-sm">Sent back: {data.comment}</p> : null}
            <table className="w-full text-sm">
              <caption className="sr-only">Days</caption>
              <thead>
                <tr className="border-b border-border text-left text-xs text-muted-fg">
                  <th scope="col" className="p-2 font-medium">
                    Day
                  </th>
                  <th scope="col" className="p-2 text-right font-medium">
                    Logged
                  </th>
                  <th scope="col" className="p-2 text-right font-medium">
                    Expected
                  </th>
                  <th scope="col" className="p-2 font-medium">
                    Look at
                  </th>
                </tr>
              </thead>
              <tbody>
                {data.days.map((d) => (
                  <tr key={d.date} className="border-b border-border last:border-0">
                    <th scope="row" className="whitespace-nowrap p-2 text-left font-normal">
                      {format.date(d.date, 'weekday')}
                    </th>
                    <td className="p-2 text-right tabular-nums">{formatMinutes(d.minutes) || '-'}</td>
                    <td className="p-2 text-right tabular-nums">{formatMinutes(d.expected) || '-'}</td>
                    <td className="p-2">
                      {d.flags.length ? (
                        <ul className="flex flex-col gap-0.5 text-warning">
                          {d.flags.map((f) => (
                            <li key={f.kind} className="flex items-start gap-1">
                              <TriangleAlert className="mt-0.5 size-3.5 shrink-0" aria-hidden />
                              {f.label}
                            </li>
                          ))}
                        </ul>
                      ) : d.absence ? (
                        <span className="text-muted-fg">{d.absence.name}</span>
                      ) : null}
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
            <section aria-labelledby="member-week-entries">
              <h3 id="member-week-entries" className="mb-2 font-medium">
                Entries
              </h3>
              {data.entries.length === 0 ? (
                <p className="text-muted-fg">No time recorded this week.</p>
              ) : (
                <table className="w-full text-sm">
                  <thead>
                    <tr className="border-b border-border text-left text-xs text-muted-fg">
                      <th scope="col" className="p-2 font-medium">
                        Day
                      </th>
                      <th scope="col" className="p-2 font-medium">
                        Work
                      </th>
                      <th scope="col" className="p-2 text-right font-medium">
                        Hours
                      </th>
                    </tr>
                  </thead>
                  <tbody>
                    {data.entries.map((e) => (
                      <tr key={e.id} className="border-b border-border align-top last:border-0">
                        <td className="whitespace-nowrap p-2">{format.date(e.date, 'weekday')}</td>
                        <td className="p-2">
                          <span className="block">
                            {[e.clientName, e.projectName, e.taskTitle].filter(Boolean).join(' · ') ||
                              'Firm time'}
                          </span>
                          {e.note ? <span className="block text-xs text-muted-fg">{e.note}</span> : null}
                          {e.billable ? null : <Badge className="mt-1">Not billable</Badge>}
                        </td>
                        <td className="p-2 text-right tabular-nums">{formatMinutes(e.minutes)}</td>
                      </tr>
                    ))}
                  </tbody>
                </table>
              )}
            </section>
          </div>
        )}
      </DrawerContent>
    </Drawer>
  );
}
