// Automations' events (issue 41), recorded by the features where things happen. A leaf module, not
// part of the automations feature: billing and proposals record events too, and automations calls
// billing (raise the period's invoice), so the recorder must import no feature.
import { and, eq, inArray } from 'drizzle-orm';
import type { TTriggerKind } from '../../domain/automations';
import type { TExecutor } from '../db/client';
import { automationEvents, automationRules } from '../db/schema';
import { enqueue } from '../jobs/queue';

export const AUTOMATION_EVENT_JOB = 'automations.event';

export type TAutomationEvent = {
  orgId: string;
  kind: TTriggerKind;
  projectId?: string | null;
  clientId?: string | null;
  data?: Record<string, unknown>;
  /** Set when a rule's action caused the event: its depth is the causing event's + 1. */
  cause?: { depth: number; ruleId: string } | null;
};

/**
 * Records that something happened, inside the caller's transaction: the event row commits (or rolls
 * back) with the change. The job that evaluates the firm's rules is queued with it only when the firm
 * has a rule switched on for this kind, so firms without rules pay one indexed lookup and one insert.
 */
export async function emitAutomationEvent(tx: TExecutor, event: TAutomationEvent): Promise<{ id: string }> {
  const [row] = await emitAutomationEvents(tx, event.orgId, [event]);
  if (!row) throw new Error('automation event not recorded');
  return row;
}

/**
 * Several events of one firm at once (a bulk status change): one insert, one lookup of the kinds the
 * firm has rules switched on for, and a job for each event of those kinds.
 */
export async function emitAutomationEvents(
  tx: TExecutor,
  orgId: string,
  events: readonly Omit<TAutomationEvent, 'orgId'>[],
): Promise<{ id: string; kind: string }[]> {
  if (!events.length) return [];
  const rows = await tx
    .insert(automationEvents)
    .values(
      events.map((event) => ({
        orgId,
        kind: event.kind,
        projectId: event.projectId ?? null,
        clientId: event.clientId ?? null,
        data: event.data ?? {},
        depth: event.cause ? event.cause.depth + 1 : 0,
        causedByRuleId: event.cause?.ruleId ?? null,
      })),
    )
    .returning({ id: automationEvents.id, kind: automationEvents.kind });
  if (rows.length !== events.length) throw new Error('automation events not recorded');
  const kinds = [...new Set(rows.map((r) => r.kind))];
  const live = await tx
    .selectDistinct({ kind: automationRules.triggerKind })
    .from(automationRules)
    .where(
      and(
        eq(automationRules.orgId, orgId),
        inArray(automationRules.triggerKind, kinds),
        eq(automationRules.enabled, true),
      ),
    );
  const liveKinds = new Set(live.map((l) => l.kind));
  for (const row of rows) {
    if (!liveKinds.has(row.kind)) continue;
    await enqueue(
      tx,
      AUTOMATION_EVENT_JOB,
      { eventId: row.id },
      { orgId, dedupeKey: `automation-event:${row.id}` },
    );
  }
  return rows;
}
