import { createLazyFileRoute } from '@tanstack/react-router';
import { MainLayout } from '../features/shell/main-layout';
import { StaffFormat } from '../features/shell/staff-format';

export const Route = createLazyFileRoute('/_main')({
  component: () => (
    <StaffFormat>
      <MainLayout />
    </StaffFormat>
  ),
});
