import { createLazyFileRoute } from '@tanstack/react-router';
import { MembersPage } from '../../../features/team/members-page';

export const Route = createLazyFileRoute('/_main/team/members')({ component: MembersPage });
