import { useQuery } from '@tanstack/react-query';
import { getRouteApi, Link, Outlet, useNavigate } from '@tanstack/react-router';
import { cn, FormatProvider } from '@web/ui';
import {
  CheckSquare,
  ClipboardList,
  FileText,
  FolderKanban,
  Home,
  LogOut,
  MessagesSquare,
  PenLine,
  Receipt,
} from 'lucide-react';
import { trpc } from '../../lib/trpc';

const route = getRouteApi('/clientportal/$clientId');

const NAV = [
  { label: 'Home', icon: Home, to: '/clientportal/$clientId', exact: true },
  { label: 'Requests', icon: ClipboardList, to: '/clientportal/$clientId/requests', exact: false },
  { label: 'Messages', icon: MessagesSquare, to: '/clientportal/$clientId/messages', exact: false },
  { label: 'Documents', icon: FileText, to: '/clientportal/$clientId/documents', exact: false },
  { label: 'Projects', icon: FolderKanban, to: '/clientportal/$clientId/projects', exact: false },
  { label: 'Tasks', icon: CheckSquare, to: '/clientportal/$clientId/tasks', exact: false },
  { label: 'Invoices', icon: Receipt, to: '/clientportal/$clientId/invoices', exact: false },
] as const;

/**
 * The clientportal layout, phone first: the firm's logo and name, the client (a switcher when the
 * person acts for several), and the seven sections, as a bottom bar on a phone and tabs above.
 * Messages carries the person's unread count.
 */
export function PortalLayout() {
  const { clientId } = route.useParams();
  const navigate = useNavigate();
  const { data: me } = useQuery(trpc.clientPortalProfile.me.queryOptions());
  const client = me?.clients.find((c) => c.id === clientId);
  const firm = client?.firm;
  const unread = useQuery({
    ...trpc.clientPortalMessages.unread.queryOptions({ clientId }),
    refetchInterval: 30_000,
  }).data?.messages;
  const badge = (label: string) =>
    label === 'Messages' && unread ? (
      <span className="ml-1 rounded-full bg-primary px-1.5 text-[10px] font-semibold leading-4 text-primary-fg">
        {unread}
        <span className="sr-only"> unread</span>
      </span>
    ) : null;
  return (
    <div className="flex min-h-full flex-col bg-bg">
      <header className="border-b border-border bg-surface">
        <div className="mx-auto flex max-w-4xl items-center gap-3 px-4 py-3">
          {firm?.logoUrl ? (
            <img src={firm.logoUrl} alt="" className="size-9 shrink-0 rounded-md object-contain" />
          ) : (
            <span
              aria-hidden="true"
              className="grid size-9 shrink-0 place-items-center rounded-md bg-primary font-semibold text-primary-fg"
            >
              {firm?.name.slice(0, 1).toUpperCase() ?? ''}
            </span>
          )}
          <div className="min-w-0 flex-1">
            <p className="truncate text-sm font-semibold" data-testid="portal-firm">
              {firm?.name ?? ''}
            </p>
            {me && me.clients.length > 1 ? (
              <label className="flex min-w-0 items-center gap-1 text-xs text-muted-fg">
                <span className="sr-only">Client</span>
                <select
                  aria-label="Client"
                  value={clientId}
                  onChange={(e) =>
                    void navigate({ to: '/clientportal/$clientId', params: { clientId: e.target.value } })
                  }
                  className="min-w-0 max-w-full truncate rounded border border-border bg-surface py-0.5 pr-6 pl-1 text-xs text-fg"
                >
                  {me.clients.map((c) => (
                    <option key={c.id} value={c.id}>
                      {c.name}
                      {new Set(me.clients.map((x) => x.firm.id)).size > 1 ? ` (${c.firm.name})` : ''}
                    </option>
                  ))}
                </select>
              </label>
            ) : (
              <p className="truncate text-xs text-muted-fg">{client?.name ?? ''}</p>
            )}
          </div>
          <a
            href="/clientportal/auth/logout"
            className="inline-flex shrink-0 items-center gap-1 rounded-md px-2 py-1.5 text-sm text-muted-fg hover:bg-muted hover:text-fg focus-visible:outline-2 focus-visible:outline-ring"
          >
            <LogOut aria-hidden="true" className="size-4" />
            <span>Sign out</span>
          </a>
        </div>
        <nav aria-label="Portal" className="mx-auto hidden max-w-4xl gap-1 px-4 sm:flex">
          {NAV.map((item) => (
            <Link
              key={item.label}
              to={item.to}
              params={{ clientId }}
              activeOptions={{ exact: item.exact }}
              className="inline-flex items-center gap-2 border-b-2 border-transparent px-3 py-2 text-sm text-muted-fg hover:text-fg data-[status=active]:border-primary data-[status=active]:font-medium data-[status=active]:text-fg"
            >
              <item.icon aria-hidden="true" className="size-4" />
              {item.label}
              {badge(item.label)}
            </Link>
          ))}
        </nav>
      </header>
      <main className="mx-auto w-full max-w-4xl flex-1 px-4 pt-4 pb-24 sm:pb-8">
        <ToSignBanner clientId={clientId} />
        {/* The route loaded the profile before this renders, so the firm is known. */}
        {firm ? (
          <FormatProvider settings={firm}>
            <Outlet />
          </FormatProvider>
        ) : (
          <Outlet />
        )}
      </main>
      <nav
        aria-label="Portal sections"
        className="fixed inset-x-0 bottom-0 z-40 flex border-t border-border bg-surface pb-[env(safe-area-inset-bottom)] sm:hidden"
      >
        {NAV.map((item) => (
          <Link
            key={item.label}
            to={item.to}
            params={{ clientId }}
            activeOptions={{ exact: item.exact }}
            className={cn(
              // Seven sections share 375 px: each takes its label's width and an equal share of what
              // is left, so a long label (Documents) borrows from the short ones (Home, Tasks); equal
              // columns cut it where the font runs wide.
              'flex flex-auto flex-col items-center gap-0.5 px-0.5 py-2 text-[10px] leading-tight tracking-tight whitespace-nowrap text-muted-fg',
              'data-[status=active]:font-medium data-[status=active]:text-primary',
            )}
          >
            <span className="relative">
              <item.icon aria-hidden="true" className="size-5" />
              {item.label === 'Messages' && unread ? (
                <span className="absolute -top-1.5 -right-2.5 rounded-full bg-primary px-1 text-[10px] font-semibold leading-4 text-primary-fg">
                  {unread}
                  <span className="sr-only"> unread</span>
                </span>
              ) : null}
            </span>
            {item.label}
          </Link>
        ))}
      </nav>
    </div>
  );
}

/** "To sign": shown above every portal page while something waits on this person's signature. */
function ToSignBanner({ clientId }: { clientId: string }) {
  const list = useQuery(trpc.clientPortalSigning.list.queryOptions({ clientId }));
  const n = list.data?.length ?? 0;
  if (!n) return null;
  return (
    <Link
      to="/clientportal/$clientId/sign"
      params={{ clientId }}
      className="mb-4 flex items-center gap-2 rounded-md border border-primary/40 bg-primary/5 p-3 text-sm font-medium text-fg hover:underline focus-visible:outline-2 focus-visible:outline-ring"
    >
      <PenLine aria-hidden="true" className="size-4 shrink-0 text-primary" />
      To sign: {n === 1 ? '1 document waits' : `${n} documents wait`} for your signature
    </Link>
  );
}
