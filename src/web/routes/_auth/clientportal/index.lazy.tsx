import { createLazyFileRoute } from '@tanstack/react-router';
import { ClientPicker } from '../../../features/client-portal/client-picker';

export const Route = createLazyFileRoute('/_auth/clientportal/')({ component: ClientPicker });
