import { createLazyFileRoute } from '@tanstack/react-router';
import { BillingSettingsPage } from '../../../../features/billing/settings/billing-settings-page';

export const Route = createLazyFileRoute('/_main/admin/settings/billing')({ component: BillingSettingsPage });
