import { EmptyState } from '@web/ui';
import { Lock } from 'lucide-react';

/**
 * What a member without the right sees on an admin screen (admin routes have no route guard beyond
 * login, SPEC.md §2); the server refuses the calls regardless.
 */
export function NoAccess({ what }: { what: string }) {
  return (
    <div className="mx-auto max-w-3xl p-6">
      <EmptyState
        icon={Lock}
        title="You do not have access"
        message={`Your role does not let you see ${what}. Ask the firm's owner or an admin if you need it.`}
      />
    </div>
  );
}
