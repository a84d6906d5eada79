import { and, eq } from 'drizzle-orm';
import type { TExecutor } from '../../db/client';
import { broadcastTemplates } from '../../db/schema';
import { valuesFor } from './context';
import { renderFor, renderText } from './render';

/**
 * One client's message from a broadcast template (its subject and its body's text part) or from a
 * text, placeholders filled as a broadcast fills them. null: the template is not the firm's.
 */
export async function renderClientMessage(
  db: TExecutor,
  input: {
    orgId: string;
    clientId: string;
    publicUrl: string;
    templateId: string | null;
    text: string | null;
  },
): Promise<{ subject: string; text: string } | null> {
  const values = (await valuesFor(db, input.orgId, [input.clientId], input.publicUrl)).get(
    input.clientId,
  ) ?? {
    pending: [],
  };
  if (input.templateId) {
    const [template] = await db
      .select({ subject: broadcastTemplates.subject, bodyHtml: broadcastTemplates.bodyHtml })
      .from(broadcastTemplates)
      .where(and(eq(broadcastTemplates.orgId, input.orgId), eq(broadcastTemplates.id, input.templateId)))
      .limit(1);
    if (!template) return null;
    const rendered = renderFor(template, values);
    return { subject: rendered.subject, text: rendered.text.trim() };
  }
  return {
    subject: `A message from ${values.firm_name ?? 'your accountant'}`,
    text: renderText(input.text ?? '', values),
  };
}
