import { ACTIONS, AREAS, SPECIAL_PERMISSIONS, type TPermission } from '@domain/permissions';
import { AREA_LABELS, SPECIAL_PERMISSION_LABELS } from '@domain/roles';
import { Checkbox } from '@web/ui';

const ACTION_LABELS = { view: 'View', create: 'Create', edit: 'Edit', delete: 'Delete' } as const;

export type PermissionMatrixProps = {
  value: readonly string[];
  onChange: (next: TPermission[]) => void;
  readOnly?: boolean;
  /** Rights the editor may hand out (their own); others can be kept or removed, not added. */
  canGrant?: (key: TPermission) => boolean;
};

/**
 * Rights as a grid, areas down and actions across, then the special rights in words. Every cell is
 * a real checkbox with its own name ("Clients: edit"), so Tab walks the grid and Space toggles.
 */
export function PermissionMatrix({ value, onChange, readOnly = false, canGrant }: PermissionMatrixProps) {
  const has = (key: TPermission) => value.includes(key);
  const locked = (key: TPermission) => readOnly || (!has(key) && canGrant !== undefined && !canGrant(key));
  const set = (keys: TPermission[], on: boolean) => {
    const next = new Set(value as TPermission[]);
    for (const key of keys) {
      if (on) next.add(key);
      else next.delete(key);
    }
    onChange([...next]);
  };

  return (
    <div className="flex flex-col gap-5">
      <div className="overflow-x-auto rounded-md border border-border">
        <table className="w-full text-sm">
          <caption className="sr-only">Rights by area</caption>
          <thead className="bg-muted/50 text-xs text-muted-fg">
            <tr>
              <th scope="col" className="px-3 py-2 text-left font-medium">
                Area
              </th>
              {ACTIONS.map((action) => (
                <th key={action} scope="col" className="w-16 px-2 py-2 text-center font-medium">
                  {ACTION_LABELS[action]}
                </th>
              ))}
              <th scope="col" className="w-14 px-2 py-2 text-center font-medium">
                All
              </th>
            </tr>
          </thead>
          <tbody>
            {AREAS.map((area) => {
              const keys = ACTIONS.map((action) => `${area}.${action}` as TPermission);
              const count = keys.filter(has).length;
              const all = count === keys.length ? true : count > 0 ? 'indeterminate' : false;
              return (
                <tr key={area} className="border-t border-border">
                  <th scope="row" className="px-3 py-1.5 text-left font-normal text-fg">
                    {AREA_LABELS[area]}
                  </th>
                  {ACTIONS.map((action) => {
                    const key = `${area}.${action}` as TPermission;
                    return (
                      <td key={action} className="px-2 py-1.5 text-center">
                        <span className="inline-flex">
                          <Checkbox
                            aria-label={`${AREA_LABELS[area]}: ${action}`}
                            checked={has(key)}
                            disabled={locked(key)}
                            onCheckedChange={(on) => set([key], on === true)}
                          />
                        </span>
                      </td>
                    );
                  })}
                  <td className="px-2 py-1.5 text-center">
                    <span className="inline-flex">
                      <Checkbox
                        aria-label={`${AREA_LABELS[area]}: all`}
                        checked={all}
                        disabled={readOnly || (all !== true && keys.some(locked))}
                        onCheckedChange={() => set(keys, all !== true)}
                      />
                    </span>
                  </td>
                </tr>
              );
            })}
          </tbody>
        </table>
      </div>
      <fieldset className="flex flex-col gap-3">
        <legend className="mb-2 text-sm font-medium text-fg">Special rights</legend>
        {SPECIAL_PERMISSIONS.map((key) => {
          const { label, hint } = SPECIAL_PERMISSION_LABELS[key];
          return (
            <div key={key} className="flex flex-col gap-0.5">
              <Checkbox
                label={label}
                checked={has(key)}
                disabled={locked(key)}
                onCheckedChange={(on) => set([key], on === true)}
              />
              <p className="pl-6 text-xs text-muted-fg">{hint}</p>
            </div>
          );
        })}
      </fieldset>
    </div>
  );
}
