import { isTaskTag } from '@domain/tasks-constants';
import { createFileRoute } from '@tanstack/react-router';
import { parseTasksSearch } from '../../../../features/tasks/tasks-search';
import { ensureValidRoute } from '../../../../lib/route-guard';

/** /tasks/filters/{tag}: a tag that could not exist is a 404 (route validity). */
export const Route = createFileRoute('/_main/tasks/filters/$tag')({
  validateSearch: parseTasksSearch,
  beforeLoad: ({ params }) => ensureValidRoute(isTaskTag(params.tag)),
});
