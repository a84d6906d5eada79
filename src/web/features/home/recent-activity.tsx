import { relativeDate } from '@domain/dates';
import { Card, CardContent, CardHeader, CardTitle, cardLinkClasses, EmptyState } from '@web/ui';
import { History } from 'lucide-react';
import { HrefLink } from './href-link';
import type { TDashboard } from './use-dashboard';

export function RecentActivity({ activity }: { activity: TDashboard['activity'] }) {
  const firm = activity.scope === 'firm';
  return (
    <Card aria-label="Recent activity">
      <CardHeader>
        <CardTitle>{firm ? 'Recent activity' : 'My recent activity'}</CardTitle>
        {firm ? (
          <HrefLink href="/admin/systemlog" className={cardLinkClasses}>
            System log
          </HrefLink>
        ) : null}
      </CardHeader>
      <CardContent>
        {activity.rows.length ? (
          <ol className="divide-y divide-border">
            {activity.rows.map((entry) => (
              <li key={entry.id} className="flex items-baseline gap-3 py-2 text-sm">
                <span className="min-w-0 flex-1">
                  <span className="text-fg">{entry.summary}</span>
                  {firm && entry.actorName ? (
                    <span className="text-muted-fg"> · {entry.actorName}</span>
                  ) : null}
                </span>
                <time dateTime={entry.at.toISOString()} className="shrink-0 text-xs text-muted-fg">
                  {relativeDate(entry.at)}
                </time>
              </li>
            ))}
          </ol>
        ) : (
          <EmptyState
            icon={History}
            title="No activity yet"
            message="Changes made in the firm show up here."
          />
        )}
      </CardContent>
    </Card>
  );
}
