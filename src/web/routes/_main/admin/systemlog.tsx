import { createFileRoute } from '@tanstack/react-router';
import { ZSystemLogSearch } from '../../../features/system-log/search';

/** /admin/systemlog: page, sort and filters live in the URL, so a filtered view can be shared. */
export const Route = createFileRoute('/_main/admin/systemlog')({
  validateSearch: (search: Record<string, unknown>) => ZSystemLogSearch.parse(search),
});
