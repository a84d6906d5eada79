import { createFileRoute } from '@tanstack/react-router';
import { parseSystemLogSearch } from '../../../features/system-log/search';

/** /admin/systemlog: page, sort and filters live in the URL, so a filtered view can be shared. */
export const Route = createFileRoute('/_main/admin/systemlog')({
  validateSearch: parseSystemLogSearch,
});
