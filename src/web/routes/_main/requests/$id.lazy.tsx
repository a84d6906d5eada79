import { createLazyFileRoute } from '@tanstack/react-router';
import { RequestReviewPage } from '../../../features/requests/request-review-page';

export const Route = createLazyFileRoute('/_main/requests/$id')({ component: RequestReviewPage });
