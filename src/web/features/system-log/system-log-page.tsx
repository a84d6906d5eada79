import { endOfDayIn, startOfDayIn } from '@domain/time-zone';
import { modernTimeZone } from '@domain/time-zone-names';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { getRouteApi } from '@tanstack/react-router';
import {
  Button,
  type DataTableColumn,
  DatePicker,
  Drawer,
  EmptyState,
  Input,
  ListScreen,
  PageHeader,
  Select,
  useFormat,
} from '@web/ui';
import { ScrollText, Search, X } from 'lucide-react';
import { Fragment, useEffect, useState } from 'react';
import { trpc } from '../../lib/trpc';
import { NoAccess, useCan } from '../shell/access';
import { useProfile } from '../shell/use-profile';
import { ExportButton } from './export-button';
import type { TSystemLogSearch } from './search';
import { actorLabel, SystemLogDrawer, type TSystemLogEntry } from './system-log-drawer';

const route = getRouteApi('/_main/admin/systemlog');

/** "documents.tree.create" with a line break allowed after each dot. */
function breakAfterDots(code: string) {
  return code.split('.').map((part, i, all) => (
    // biome-ignore lint/suspicious/noArrayIndexKey: the parts of one code, in order
    <Fragment key={i}>
      {part}
      {i < all.length - 1 ? (
        <>
          .<wbr />
        </>
      ) : null}
    </Fragment>
  ));
}
const ALL = 'all';

/** /admin/systemlog: the firm's append-only audit trail, filtered and paged on the server. */
export function SystemLogPage() {
  if (!useCan('systemLog.view')) return <NoAccess />;
  return <SystemLogScreen />;
}

function SystemLogScreen() {
  const profile = useProfile();
  const timeZone = profile.org.timeZone;
  const format = useFormat();
  const search = route.useSearch();
  const navigate = route.useNavigate();
  const [open, setOpen] = useState<TSystemLogEntry | null>(null);
  const [text, setText] = useState(search.search ?? '');

  const setSearch = (next: Partial<TSystemLogSearch>, keepPage = false) =>
    navigate({ search: (prev) => ({ ...prev, ...next, ...(keepPage ? {} : { page: 1 }) }), replace: true });

  // Typing waits for a pause before it asks the server.
  useEffect(() => {
    const value = text.trim() || undefined;
    if (value === search.search) return;
    const timer = setTimeout(() => setSearch({ search: value }), 300);
    return () => clearTimeout(timer);
  });

  const filter = {
    sort: search.sort,
    direction: search.direction,
    search: search.search,
    actorId: search.actorId,
    recordType: search.recordType,
    action: search.action,
    from: search.from ? startOfDayIn(search.from, timeZone) : undefined,
    to: search.to ? endOfDayIn(search.to, timeZone) : undefined,
  };
  const facets = useQuery(trpc.systemLog.facets.queryOptions());
  const list = useQuery({
    ...trpc.systemLog.list.queryOptions({ ...filter, page: search.page, pageSize: search.pageSize }),
    placeholderData: keepPreviousData,
  });
  const filtered = Boolean(
    search.search || search.actorId || search.recordType || search.action || search.from || search.to,
  );

  const columns: DataTableColumn<TSystemLogEntry>[] = [
    {
      id: 'at',
      header: 'When',
      sortable: true,
      sortDescFirst: true,
      cell: (e) => <time dateTime={e.at.toISOString()}>{format.dateTime(e.at, { seconds: true })}</time>,
    },
    { id: 'who', header: 'Who', truncate: true, cell: actorLabel },
    {
      id: 'action',
      header: 'Action',
      sortable: true,
      // A long action wraps after its dots when the summary needs the room, never mid-word.
      className: 'whitespace-normal',
      minWidth: 9,
      cell: (e) => <code className="text-xs">{breakAfterDots(e.action)}</code>,
    },
    {
      id: 'recordType',
      header: 'Record',
      sortable: true,
      cell: (e) => e.recordType,
    },
    {
      id: 'summary',
      header: 'Summary',
      primary: true,
      truncate: true,
      lines: 2,
      minWidth: 14,
      cell: (e) => e.summary,
    },
    {
      id: 'ip',
      header: 'IP',
      // An IPv6 address wraps rather than being cut.
      className: 'hidden lg:table-cell whitespace-normal',
      minWidth: 7,
      cell: (e) => (e.ip ? <span className="font-mono text-xs break-all">{e.ip}</span> : '—'),
    },
  ];

  const options = (values: string[] | undefined, all: string) => [
    { value: ALL, label: all },
    ...(values ?? []).map((value) => ({ value, label: value })),
  ];

  const toolbar = (
    <div className="flex w-full flex-wrap items-center gap-2">
      <div className="relative w-full sm:w-48">
        <Search
          aria-hidden="true"
          className="pointer-events-none absolute top-1/2 left-2.5 size-4 -translate-y-1/2 text-muted-fg"
        />
        <Input
          type="search"
          aria-label="Search the log"
          placeholder="Search summaries"
          className="pl-8"
          value={text}
          onChange={(e) => setText(e.target.value)}
        />
      </div>
      <Select
        aria-label="Member"
        className="w-40"
        value={search.actorId ?? ALL}
        onValueChange={(v) => setSearch({ actorId: v === ALL ? undefined : v })}
        options={[
          { value: ALL, label: 'All members' },
          ...(facets.data?.actors ?? []).map((a) => ({ value: a.id, label: a.name })),
        ]}
      />
      <Select
        aria-label="Record type"
        className="w-36"
        value={search.recordType ?? ALL}
        onValueChange={(v) => setSearch({ recordType: v === ALL ? undefined : v })}
        options={options(facets.data?.recordTypes, 'All records')}
      />
      <Select
        aria-label="Action"
        className="w-44"
        value={search.action ?? ALL}
        onValueChange={(v) => setSearch({ action: v === ALL ? undefined : v })}
        options={options(facets.data?.actions, 'All actions')}
      />
      <DatePicker
        aria-label="From date"
        placeholder="From"
        className="w-32"
        value={search.from ?? null}
        max={search.to}
        onChange={(v) => setSearch({ from: v ?? undefined })}
      />
      <DatePicker
        aria-label="To date"
        placeholder="To"
        className="w-32"
        value={search.to ?? null}
        min={search.from}
        onChange={(v) => setSearch({ to: v ?? undefined })}
      />
      {filtered ? (
        <Button
          variant="ghost"
          onClick={() => {
            setText('');
            setSearch({
              search: undefined,
              actorId: undefined,
              recordType: undefined,
              action: undefined,
              from: undefined,
              to: undefined,
            });
          }}
        >
          <X aria-hidden="true" /> Clear filters
        </Button>
      ) : null}
    </div>
  );

  return (
    <div className="mx-auto max-w-7xl p-6">
      <PageHeader
        title="System log"
        description={`Every change made in the firm, newest first. Times in ${modernTimeZone(timeZone)}.`}
        trail={[{ label: 'Admin', to: '/admin' }, { label: 'System log' }]}
        actions={<ExportButton filter={filter} />}
      />
      <ListScreen
        label="System log"
        // Every change here says its page; a filter of the toolbar's own starts again from page one.
        url={{ search, setSearch: (next) => setSearch(next, true) }}
        query={search}
        list={list}
        columns={columns}
        getRowId={(e) => e.id}
        getRowLabel={(e) => e.summary}
        onRowClick={setOpen}
        tools={toolbar}
        empty={
          <EmptyState
            icon={ScrollText}
            title={filtered ? 'Nothing matches these filters' : 'Nothing has been logged yet'}
            message={filtered ? 'Try a wider date range or clear the filters.' : undefined}
          />
        }
      />
      <Drawer open={open !== null} onOpenChange={(o) => (o ? null : setOpen(null))}>
        {open ? <SystemLogDrawer entry={open} /> : null}
      </Drawer>
    </div>
  );
}
