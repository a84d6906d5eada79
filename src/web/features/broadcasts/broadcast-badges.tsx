import {
  BROADCAST_STATUS_LABELS,
  DELIVERY_STATE_LABELS,
  type TBroadcastStatus,
  type TDeliveryState,
} from '@domain/broadcasts';
import { Badge, type BadgeTone } from '@web/ui';

const STATUS_TONE: Record<TBroadcastStatus, BadgeTone> = {
  scheduled: 'grey',
  sending: 'blue',
  paused: 'yellow',
  completed: 'green',
  cancelled: 'light-grey',
};
const STATE_TONE: Record<TDeliveryState, BadgeTone> = {
  queued: 'grey',
  sending: 'blue',
  sent: 'green',
  failed: 'red',
  bounced: 'red',
  unsubscribed: 'light-grey',
};

export const BroadcastStatusBadge = ({ status }: { status: TBroadcastStatus }) => (
  <Badge tone={STATUS_TONE[status]} dot>
    {BROADCAST_STATUS_LABELS[status]}
  </Badge>
);

export const DeliveryStateBadge = ({ state }: { state: TDeliveryState }) => (
  <Badge tone={STATE_TONE[state]} dot>
    {DELIVERY_STATE_LABELS[state]}
  </Badge>
);
