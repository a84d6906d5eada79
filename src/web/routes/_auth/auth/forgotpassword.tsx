import { createFileRoute } from '@tanstack/react-router';
import { guard } from '../../../lib/route-guard';

export const Route = createFileRoute('/_auth/auth/forgotpassword')({
  beforeLoad: ({ location }) => guard(location, { isPublic: true }),
});
