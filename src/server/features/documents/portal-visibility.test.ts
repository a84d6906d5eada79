import { describe, expect, it } from 'vitest';
import {
  movedInPortal,
  names,
  portalReach,
  portalState,
  reachOfTree,
  type TReachFolder,
} from './portal-visibility';

// The pure form of the portal rule (no database): sharing.test.ts checks it against what a portal
// user is actually shown.

const CLIENT = 'client-1';
const folder = (id: string, parentId: string | null, visibleToPortal: boolean): TReachFolder => ({
  id,
  name: id.toUpperCase(),
  parentId,
  visibleToPortal,
});
const top = folder('top', null, false);

describe('portalReach', () => {
  it('opens the top always, and a folder when every folder below the top on its path is shared', () => {
    expect(portalReach(CLIENT, [top])).toEqual({ visible: true, hiddenBy: [] });
    expect(portalReach(CLIENT, [top, folder('a', 'top', true), folder('b', 'a', true)])).toEqual({
      visible: true,
      hiddenBy: [],
    });
  });

  it('names every internal folder on the way, top first, whatever lies below them', () => {
    const path = [top, folder('a', 'top', false), folder('b', 'a', true), folder('c', 'b', false)];
    expect(portalReach(CLIENT, path)).toEqual({
      visible: false,
      hiddenBy: [
        { id: 'a', name: 'A' },
        { id: 'c', name: 'C' },
      ],
    });
  });

  it('never opens the firm vault', () => {
    expect(portalReach(null, [top, folder('a', 'top', true)])).toEqual({ visible: false, hiddenBy: [] });
  });
});

describe('portalState', () => {
  const open = { visible: true, hiddenBy: [] };
  const closed = { visible: false, hiddenBy: [{ id: 'a', name: 'A' }] };
  it('is internal when not shared, visible when shared in an open folder, hidden when shared in a closed one', () => {
    expect(portalState(false, open)).toBe('internal');
    expect(portalState(false, closed)).toBe('internal');
    expect(portalState(true, open)).toBe('visible');
    expect(portalState(true, closed)).toBe('hidden');
  });
});

describe('reachOfTree', () => {
  it('answers each folder as its own path would, and leaves out folders cut off from the top', () => {
    const folders = [
      top,
      folder('a', 'top', true),
      folder('b', 'a', false),
      folder('c', 'b', true),
      folder('orphan', 'deleted', true),
    ];
    const reach = reachOfTree(CLIENT, folders);
    expect(reach('a')).toEqual({ visible: true, hiddenBy: [] });
    expect(reach('c')).toEqual({ visible: false, hiddenBy: [{ id: 'b', name: 'B' }] });
    expect(reach('c')).toEqual(
      portalReach(CLIENT, [top, folders[1], folders[2], folders[3]] as TReachFolder[]),
    );
    expect(reach('orphan')).toBeNull();
    expect(reach('unknown')).toBeNull();
  });

  it('stops on a cycle instead of looping', () => {
    const reach = reachOfTree(CLIENT, [folder('x', 'y', true), folder('y', 'x', true)]);
    expect(reach('x')).toBeNull();
  });
});

describe('movedInPortal', () => {
  const shared = [top, folder('s', 'top', true)];
  const internal = [top, folder('w', 'top', false)];
  const file = (visibleToPortal: boolean) => ({ clientId: CLIENT, visibleToPortal });
  it('tells when a move hides a shared item from the client or shows it again', () => {
    expect(movedInPortal(file(true), shared, internal)).toBe(
      ' (the client no longer sees it: “W” is internal)',
    );
    expect(movedInPortal(file(true), internal, shared)).toBe(' (the client now sees it)');
  });
  it('says nothing when the client sees no difference', () => {
    expect(movedInPortal(file(false), shared, internal)).toBe('');
    expect(movedInPortal(file(true), shared, [top])).toBe('');
    expect(movedInPortal({ clientId: null, visibleToPortal: false }, [top], [top])).toBe('');
  });
});

describe('names', () => {
  it('quotes and joins folder names as a sentence does', () => {
    const f = (name: string) => ({ id: name, name });
    expect(names([])).toBe('');
    expect(names([f('A')])).toBe('“A”');
    expect(names([f('A'), f('B')])).toBe('“A” and “B”');
    expect(names([f('A'), f('B'), f('C')])).toBe('“A”, “B” and “C”');
  });
});
