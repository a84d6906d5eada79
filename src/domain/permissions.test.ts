import { describe, expect, it } from 'vitest';
import { ALL_PERMISSIONS, hasPermission, isPermission } from './permissions';

describe('permissions', () => {
  it('grants the owner everything and others only what their role lists', () => {
    expect(hasPermission({ isOwner: true, permissions: [] }, 'vault.reveal')).toBe(true);
    expect(hasPermission({ isOwner: false, permissions: ['clients.view'] }, 'clients.view')).toBe(true);
    expect(hasPermission({ isOwner: false, permissions: ['clients.view'] }, 'clients.edit')).toBe(false);
  });
  it('knows every key it defines and nothing else', () => {
    expect(ALL_PERMISSIONS).toContain('systemLog.view');
    expect(new Set(ALL_PERMISSIONS).size).toBe(ALL_PERMISSIONS.length);
    expect(isPermission('clients.delete')).toBe(true);
    expect(isPermission('clients.fly')).toBe(false);
  });
});
