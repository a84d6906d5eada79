import { createLazyFileRoute } from '@tanstack/react-router';
import { SigningPage } from '../../../features/proposals/signing-page';

export const Route = createLazyFileRoute('/_auth/sign/$proposalId/$signerId')({ component: SigningPage });
