import { createLazyFileRoute } from '@tanstack/react-router';
import { OrgSettingsPage } from '../../../../features/settings/org-settings-page';

export const Route = createLazyFileRoute('/_main/admin/settings/org')({ component: OrgSettingsPage });
