import { FormatProvider } from '@web/ui';
import type { ReactNode } from 'react';
import { useProfile } from './use-profile';

/** Every staff screen formats dates and numbers as the member's firm does (its settings). */
export function StaffFormat({ children }: { children: ReactNode }) {
  const { org } = useProfile();
  return <FormatProvider settings={org}>{children}</FormatProvider>;
}
