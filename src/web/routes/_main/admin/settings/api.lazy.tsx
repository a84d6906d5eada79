import { createLazyFileRoute } from '@tanstack/react-router';
import { ApiKeysPage } from '../../../../features/api/api-keys-page';

export const Route = createLazyFileRoute('/_main/admin/settings/api')({ component: ApiKeysPage });
