import { INBOX_VIEW_LABELS, INBOX_VIEWS, type TInboxView } from '@domain/messages';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { cn, EmptyState, Pagination, SearchBox, Select, Skeleton } from '@web/ui';
import { MessagesSquare } from 'lucide-react';
import type { ReactNode } from 'react';
import { trpc } from '../../lib/trpc';
import { type TMessagesSearch, threadListInput } from './messages-search';
import { ThreadList } from './thread-list';
import { ThreadPane } from './thread-pane';

/**
 * The firm's inbox (`clientId` absent: the views All / Mine / Unassigned / Unread) or one client's
 * conversations: the list on the left, the open thread on the right (?thread=…), both in the URL.
 */
export function MessagesView({
  search,
  onSearch,
  clientId,
  actions,
}: {
  search: TMessagesSearch;
  onSearch: (next: TMessagesSearch) => void;
  clientId?: string;
  actions?: ReactNode;
}) {
  const input = threadListInput(search, clientId);
  const list = useQuery({ ...trpc.messages.list.queryOptions(input), placeholderData: keepPreviousData });
  const unread = useQuery({ ...trpc.messages.unread.queryOptions(), enabled: !clientId });
  const view = search.view ?? 'all';
  const set = (next: Partial<TMessagesSearch>) => onSearch({ ...search, page: undefined, ...next });
  return (
    <div className="grid min-h-[60vh] gap-4 lg:grid-cols-[24rem_1fr]">
      <div className="flex min-w-0 flex-col gap-3">
        {!clientId ? (
          <nav aria-label="Views" className="flex flex-wrap gap-1">
            {INBOX_VIEWS.map((v: TInboxView) => (
              <button
                key={v}
                type="button"
                aria-current={v === view ? 'page' : undefined}
                onClick={() => set({ view: v === 'all' ? undefined : v, thread: search.thread })}
                className={cn(
                  'rounded-md px-3 py-1.5 text-sm text-muted-fg hover:bg-muted',
                  v === view && 'bg-muted font-medium text-fg',
                )}
              >
                {INBOX_VIEW_LABELS[v]}
                {v === 'unread' && unread.data?.threads ? ` (${unread.data.threads})` : ''}
              </button>
            ))}
          </nav>
        ) : null}
        <SearchBox
          label="Search conversations"
          placeholder="Search subjects and messages"
          value={search.q}
          onSearch={(q) => set({ q, thread: search.thread })}
        />
        <div className="flex flex-wrap items-center justify-between gap-2">
          <Select
            size="sm"
            aria-label="Status"
            className="w-32"
            value={search.status ?? 'open'}
            onValueChange={(v) =>
              set({ status: v === 'open' ? undefined : (v as 'closed' | 'any'), thread: search.thread })
            }
            options={[
              { value: 'open', label: 'Open' },
              { value: 'closed', label: 'Closed' },
              { value: 'any', label: 'Open and closed' },
            ]}
          />
          {actions}
        </div>
        {list.isPending ? (
          <Skeleton className="h-64" />
        ) : list.data?.rows.length ? (
          <div className="rounded-lg border border-border bg-surface">
            <ThreadList
              rows={list.data.rows}
              selected={search.thread}
              showClient={!clientId}
              onSelect={(id) => onSearch({ ...search, thread: id })}
            />
          </div>
        ) : (
          <EmptyState
            icon={MessagesSquare}
            title={search.q ? 'No conversation matches' : 'No conversations here'}
            message={
              search.q
                ? 'Try other words, or another view.'
                : clientId
                  ? 'Start one with New conversation.'
                  : 'Conversations with clients appear here.'
            }
          />
        )}
        {list.data && list.data.total > list.data.pageSize ? (
          <Pagination
            page={list.data.page}
            pageSize={list.data.pageSize}
            total={list.data.total}
            totalCapped={list.data.totalCapped}
            onPageChange={(page) => onSearch({ ...search, page: page > 1 ? page : undefined })}
          />
        ) : null}
      </div>
      <div className="min-w-0 rounded-lg border border-border bg-surface p-4">
        {search.thread ? (
          <ThreadPane key={search.thread} threadId={search.thread} />
        ) : (
          <p className="p-6 text-sm text-muted-fg">Choose a conversation to read it.</p>
        )}
      </div>
    </div>
  );
}
