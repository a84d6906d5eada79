import { useSuspenseQuery } from '@tanstack/react-query';
import { Link } from '@tanstack/react-router';
import { EmptyState } from '@web/ui';
import { Building2, ChevronRight } from 'lucide-react';
import { trpc } from '../../lib/trpc';
import { AuthHeading } from '../auth/auth-layout';

/** /clientportal: whom the person may act for; the firm is named when they span several firms. */
export function ClientPicker() {
  const { data: me } = useSuspenseQuery(trpc.clientPortalProfile.me.queryOptions());
  const firms = new Set(me.clients.map((c) => c.firm.id));
  return (
    <div>
      <AuthHeading title={`Welcome, ${me.name}`} description="Choose whose documents and tasks to open." />
      {me.clients.length === 0 ? (
        <EmptyState
          icon={Building2}
          title="No clients yet"
          message="Your firm has not given you access to a client. Please contact them."
        />
      ) : (
        <ul className="flex flex-col gap-2">
          {me.clients.map((c) => (
            <li key={c.id}>
              <Link
                to="/clientportal/$clientId"
                params={{ clientId: c.id }}
                className="flex items-center gap-3 rounded-lg border border-border px-4 py-3 hover:bg-muted focus-visible:outline-2 focus-visible:outline-ring"
              >
                <Building2 aria-hidden="true" className="size-5 shrink-0 text-muted-fg" />
                <span className="min-w-0 flex-1">
                  <span className="block truncate font-medium">{c.name}</span>
                  {firms.size > 1 ? (
                    <span className="block truncate text-xs text-muted-fg">with {c.firm.name}</span>
                  ) : null}
                </span>
                <ChevronRight aria-hidden="true" className="size-4 text-muted-fg" />
              </Link>
            </li>
          ))}
        </ul>
      )}
      <a href="/clientportal/auth/logout" className="mt-6 block text-center text-sm text-muted-fg underline">
        Sign out
      </a>
    </div>
  );
}
