import { PROPOSAL_STATUS_LABELS, type TProposalDisplayStatus } from '@domain/proposals';
import { Badge } from '@web/ui';

const TONES = {
  draft: 'grey',
  sent: 'blue',
  accepted: 'green',
  declined: 'red',
  withdrawn: 'light-grey',
  expired: 'yellow',
} as const;

export function ProposalStatusBadge({ status }: { status: TProposalDisplayStatus }) {
  return (
    <Badge tone={TONES[status]} dot>
      {PROPOSAL_STATUS_LABELS[status]}
    </Badge>
  );
}
