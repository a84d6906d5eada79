import { createLazyFileRoute } from '@tanstack/react-router';
import { HomePage } from '../../features/home/home-page';

export const Route = createLazyFileRoute('/_main/')({ component: HomePage });
