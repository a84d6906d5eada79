import { createFileRoute } from '@tanstack/react-router';
import { guard } from '../../lib/route-guard';

export const Route = createFileRoute('/auth/login')({
  beforeLoad: ({ location }) => guard(location, { isPublic: true }),
});
