import { ChevronDown } from 'lucide-react';
import { Button } from './button';
import {
  DropdownMenu,
  DropdownMenuContent,
  DropdownMenuItem,
  DropdownMenuLabel,
  DropdownMenuTrigger,
} from './dropdown-menu';

export type TActionMenuItem<TAction> = { key: string; label: string; action: TAction };

/** A bulk bar's menu: a button that lists choices, each running one action over the selection. */
export function ActionMenu<TAction>({
  label,
  items,
  disabled,
  onPick,
}: {
  label: string;
  items: TActionMenuItem<TAction>[];
  disabled?: boolean;
  onPick: (action: TAction) => void;
}) {
  return (
    <DropdownMenu>
      <DropdownMenuTrigger asChild>
        <Button variant="outline" size="sm" disabled={disabled}>
          {label}
          <ChevronDown aria-hidden />
        </Button>
      </DropdownMenuTrigger>
      <DropdownMenuContent align="start" className="max-h-80 overflow-y-auto">
        {items.length === 0 ? <DropdownMenuLabel>Nothing to choose</DropdownMenuLabel> : null}
        {items.map((item) => (
          <DropdownMenuItem key={item.key} onSelect={() => onPick(item.action)}>
            {item.label}
          </DropdownMenuItem>
        ))}
      </DropdownMenuContent>
    </DropdownMenu>
  );
}
