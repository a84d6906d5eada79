import { createLazyFileRoute } from '@tanstack/react-router';
import { MyLeavesPage } from '../../../features/leave/my-leaves-page';

export const Route = createLazyFileRoute('/_main/my-account/leaves')({ component: MyLeavesPage });
