import { createLazyFileRoute } from '@tanstack/react-router';
import { GroupPage } from '../../../../features/client-groups/group-page';

export const Route = createLazyFileRoute('/_main/admin/clientgroups/$id')({ component: GroupPage });
