import { createLazyFileRoute } from '@tanstack/react-router';
import { OnboardingPage } from '../../features/onboarding/onboarding-page';

export const Route = createLazyFileRoute('/_auth/onboarding')({ component: OnboardingPage });
