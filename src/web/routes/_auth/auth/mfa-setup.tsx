import { createFileRoute } from '@tanstack/react-router';
import { guard } from '../../../lib/route-guard';

/** /auth/mfa-setup: signed in, outside the staff layout (whose calls the firm's rule may refuse). */
export const Route = createFileRoute('/_auth/auth/mfa-setup')({
  beforeLoad: ({ location }) => guard(location, { isPublic: false }),
});
