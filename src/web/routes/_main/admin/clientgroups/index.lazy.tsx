import { createLazyFileRoute } from '@tanstack/react-router';
import { GroupsPage } from '../../../../features/client-groups/groups-page';

export const Route = createLazyFileRoute('/_main/admin/clientgroups/')({ component: GroupsPage });
