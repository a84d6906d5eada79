import { createLazyFileRoute } from '@tanstack/react-router';
import { MainLayout } from '../features/shell/main-layout';

export const Route = createLazyFileRoute('/_main')({ component: MainLayout });
