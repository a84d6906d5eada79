import { createFileRoute } from '@tanstack/react-router';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** /admin/automations: the firm's rules; `rule` opens one (or "new") in the editor. */
export const Route = createFileRoute('/_main/admin/automations')({
  validateSearch: (search: Record<string, unknown>): { rule?: string } => ({
    rule:
      typeof search.rule === 'string' && (search.rule === 'new' || UUID.test(search.rule))
        ? search.rule
        : undefined,
  }),
});
