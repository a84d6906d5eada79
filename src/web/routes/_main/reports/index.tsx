import { createFileRoute } from '@tanstack/react-router';

/** /reports: the reports' index, a card and a headline figure each. */
export const Route = createFileRoute('/_main/reports/')({});
