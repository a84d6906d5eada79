import type { TPortalState } from '@domain/documents';
import { Badge, Button, confirm } from '@web/ui';
import { Eye, EyeOff } from 'lucide-react';

// What the client sees, in words. The server decides the state (the portal's own rule); these only
// say it, and ask before a share that also shares folders above the item.

export type TFolderRef = { id: string; name: string };

/** “A”, “A” and “B”, “A”, “B” and “C”. */
export function quoteNames(folders: readonly TFolderRef[]) {
  const quoted = folders.map((f) => `“${f.name}”`);
  return quoted.length > 1 ? `${quoted.slice(0, -1).join(', ')} and ${quoted.at(-1)}` : (quoted[0] ?? '');
}

/** "the folder “A”", "the folders “A” and “B”". */
export const theFolders = (folders: readonly TFolderRef[]) =>
  `the folder${folders.length === 1 ? '' : 's'} ${quoteNames(folders)}`;

const isAre = (folders: readonly TFolderRef[]) => (folders.length === 1 ? 'is' : 'are');

/** A row's portal column: shared and seen, internal, or marked shared but hidden by a folder above. */
export function PortalBadge({ state, hiddenBy }: { state: TPortalState; hiddenBy: readonly TFolderRef[] }) {
  if (state === 'visible') return <Badge tone="green">Shared</Badge>;
  if (state === 'internal') return <Badge tone="grey">Internal</Badge>;
  const why = hiddenBy.length
    ? `The client does not see it: ${quoteNames(hiddenBy)} ${isAre(hiddenBy)} internal`
    : 'The client does not see it: a folder above it is internal';
  return (
    <Badge tone="yellow" title={why}>
      Shared · hidden by folder<span className="sr-only">. {why}</span>
    </Badge>
  );
}

/**
 * Asks before sharing something whose way to the client passes internal folders (`above`): the
 * server shares them too. Nothing to ask when the way is open.
 */
export async function confirmShare(name: string, above: readonly TFolderRef[]) {
  if (above.length === 0) return true;
  return confirm({
    title: `Share ${name} with the portal?`,
    message: `The client reaches it only through ${theFolders(above)}, which ${isAre(above)} internal: sharing it also shares ${above.length === 1 ? 'that folder' : 'those folders'} with the portal. Anything already marked shared in ${above.length === 1 ? 'it' : 'them'} becomes visible to the client too.`,
    confirmLabel: above.length === 1 ? 'Share it and the folder' : 'Share it and the folders',
  });
}

/** What a share did, for its toast. */
export const sharedMessage = (name: string, alsoShared: readonly TFolderRef[]) =>
  alsoShared.length
    ? `Shared ${name} and ${theFolders(alsoShared)} with the portal`
    : `Shared ${name} with the portal`;

/**
 * The line above a client folder's contents saying whether the client sees it, and why not, with
 * the share action when they do not.
 */
export function FolderPortalNote({
  folder,
  onShare,
}: {
  folder: { id: string; portal: { visible: boolean; hiddenBy: TFolderRef[] } };
  /** Offered when the client does not see the folder and the member may change it. */
  onShare?: () => void;
}) {
  const { visible, hiddenBy } = folder.portal;
  const itself = hiddenBy.some((f) => f.id === folder.id);
  const above = hiddenBy.filter((f) => f.id !== folder.id);
  let text: string;
  if (visible) text = 'The client sees this folder in the portal, with what is shared in it.';
  else if (!above.length) text = 'This folder is internal: the client does not see it or anything in it.';
  else if (itself) {
    text = `This folder is internal, and so ${isAre(above)} ${quoteNames(above)} above it: the client does not see it or anything in it.`;
  } else {
    text = `This folder is marked shared, but the client does not see it or anything in it: ${quoteNames(above)} above it ${isAre(above)} internal.`;
  }
  return (
    <div
      role="status"
      aria-label="Portal visibility"
      className="flex flex-wrap items-center gap-2 rounded-md border border-border bg-surface px-3 py-2 text-sm"
    >
      {visible ? (
        <Eye aria-hidden="true" className="size-4 text-emerald-600" />
      ) : (
        <EyeOff aria-hidden="true" className="size-4 text-muted-fg" />
      )}
      <span className="min-w-0 flex-1">{text}</span>
      {!visible && onShare ? (
        <Button size="sm" variant="outline" onClick={onShare}>
          Share with the portal
        </Button>
      ) : null}
    </div>
  );
}
