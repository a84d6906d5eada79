import { useQuery } from '@tanstack/react-query';
import { Button, cn, DialogClose, DialogContent, Dialog as DialogRoot, Spinner } from '@web/ui';
import { Folder } from 'lucide-react';
import { useMemo, useState } from 'react';
import { trpc } from '../../lib/trpc';
import { quoteNames, type TFolderRef } from './portal-state';

type TFolder = {
  id: string;
  parentId: string | null;
  name: string;
  portal: { visible: boolean; hiddenBy: TFolderRef[] };
};

/**
 * Picks the folder to move a file or folder into, from the tree it already lives in, saying
 * beforehand whether the client will see a shared one there.
 */
export function MoveDialog({
  open,
  onOpenChange,
  clientId,
  itemName,
  shared,
  excludeId,
  currentFolderId,
  pending,
  onMove,
  wording,
}: {
  open: boolean;
  onOpenChange: (open: boolean) => void;
  clientId: string | null;
  itemName: string;
  /** Its own portal mark: a shared item is seen or hidden by where it goes. */
  shared: boolean;
  /** A folder being moved: it and what is under it cannot be the target. */
  excludeId?: string;
  currentFolderId: string;
  pending: boolean;
  onMove: (targetId: string) => void;
  /** Another use of the picker (a copy saved elsewhere): its title, explanation and button. */
  wording?: { title: string; description: string; action: string };
}) {
  const folders = useQuery({ ...trpc.documents.folders.queryOptions({ clientId }), enabled: open });
  const [target, setTarget] = useState<string | null>(null);
  const rows = useMemo(() => flatten(folders.data ?? [], excludeId), [folders.data, excludeId]);
  const chosen = rows.find((r) => r.id === target && r.id !== currentFolderId);
  return (
    <DialogRoot
      open={open}
      onOpenChange={(next) => {
        if (!next) setTarget(null);
        onOpenChange(next);
      }}
    >
      <DialogContent
        title={wording?.title ?? `Move ${itemName}`}
        description={wording?.description ?? 'Choose the folder to move it into.'}
        footer={
          <>
            <DialogClose asChild>
              <Button variant="outline">Cancel</Button>
            </DialogClose>
            <Button
              disabled={!target || target === currentFolderId}
              loading={pending}
              onClick={() => target && onMove(target)}
            >
              {wording?.action ?? 'Move here'}
            </Button>
          </>
        }
      >
        {folders.isPending ? (
          <div className="grid place-items-center p-6">
            <Spinner />
          </div>
        ) : (
          <div
            role="radiogroup"
            aria-label="Target folder"
            className="max-h-80 overflow-y-auto rounded-md border border-border"
          >
            {rows.map((row) => (
              // biome-ignore lint/a11y/useSemanticElements: a styled radio row reads better than a bare input
              <button
                key={row.id}
                type="button"
                role="radio"
                aria-checked={target === row.id}
                onClick={() => setTarget(row.id)}
                className={cn(
                  'flex w-full items-center gap-2 px-3 py-1.5 text-left text-sm hover:bg-muted focus-visible:outline-2 focus-visible:outline-ring',
                  target === row.id && 'bg-muted font-medium',
                )}
                style={{ paddingLeft: `${0.75 + row.depth * 1.25}rem` }}
              >
                <Folder aria-hidden="true" className="size-4 shrink-0 text-muted-fg" />
                <span className="truncate">{row.name}</span>
                {row.id === currentFolderId ? <span className="text-xs text-muted-fg">(current)</span> : null}
              </button>
            ))}
          </div>
        )}
        {clientId && shared && chosen ? (
          <p className="mt-3 text-sm text-muted-fg">
            {chosen.portal.visible
              ? `In “${chosen.name}” the client sees it.`
              : `In “${chosen.name}” the client will not see it: ${quoteNames(chosen.portal.hiddenBy)} ${
                  chosen.portal.hiddenBy.length === 1 ? 'is' : 'are'
                } internal.`}
          </p>
        ) : null}
      </DialogContent>
    </DialogRoot>
  );
}

/** The tree in display order (parents before children), with depth, leaving out excludeId's branch. */
function flatten(folders: TFolder[], excludeId?: string) {
  const children = new Map<string | null, TFolder[]>();
  for (const f of folders) children.set(f.parentId, [...(children.get(f.parentId) ?? []), f]);
  const out: (TFolder & { depth: number })[] = [];
  const walk = (parentId: string | null, depth: number) => {
    for (const f of children.get(parentId) ?? []) {
      if (f.id === excludeId) continue;
      out.push({ ...f, depth });
      walk(f.id, depth + 1);
    }
  };
  walk(null, 0);
  return out;
}
