import { createLazyFileRoute } from '@tanstack/react-router';
import { GapsPage } from '../../../../features/statutory/gaps-page';

export const Route = createLazyFileRoute('/_main/reports/statutory/gaps')({ component: GapsPage });
