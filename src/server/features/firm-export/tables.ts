import { getTableColumns, getTableName } from 'drizzle-orm';
import { getTableConfig, type PgColumn, type PgTable } from 'drizzle-orm/pg-core';
import {
  allocations,
  automationRules,
  automationRuns,
  billingSettings,
  clientBilling,
  clientGroups,
  clientServiceAssignees,
  clientServices,
  clients,
  clientTeam,
  clientUserClients,
  clientUsers,
  disbursements,
  documentFolders,
  documents,
  invoiceCounters,
  invoiceDeliveries,
  invoiceLines,
  invoiceReminderSteps,
  invoices,
  members,
  messageAttachments,
  messageHeldFiles,
  messageMailIds,
  messages,
  messagesHeld,
  messageThreadClientUsers,
  messageThreadMembers,
  messageThreads,
  payments,
  projectMembers,
  projects,
  projectTemplateRequests,
  projectTemplates,
  proposalEvents,
  proposalSigners,
  proposals,
  proposalTemplates,
  reminderDeliveries,
  reminderMembers,
  reminders,
  requestItemFiles,
  requestItems,
  requestRecipients,
  requests,
  requestTemplates,
  roles,
  services,
  systemLog,
  taskAssignees,
  taskAttachments,
  taskComments,
  tasks,
  templateStages,
  templateTasks,
} from '../../db/schema';

/**
 * One file pair of the export (`<name>.csv` and `json/<name>.json`): a firm table read a page at a
 * time in key order. Columns the firm has no use for outside the product (the identity provider's
 * subject, search helpers) stay out; the firm's own id is the same on every row, so it goes too.
 */
export type TExportTable = {
  name: string;
  table: PgTable;
  /** The columns the pages are ordered and continued by (the primary key, without org_id). */
  keys: string[];
  omit?: string[];
  /** One row per item of a list column instead of the table's rows (a task's checklist). */
  explode?: { column: string; parent: string; of: string; fields: string[] };
};

const ALWAYS_OMIT = ['orgId', 'searchText'];

export const EXPORT_TABLES: TExportTable[] = [
  { name: 'members', table: members, keys: ['id'], omit: ['sub'] },
  { name: 'roles', table: roles, keys: ['id'] },
  { name: 'client-groups', table: clientGroups, keys: ['id'] },
  { name: 'clients', table: clients, keys: ['id'] },
  { name: 'client-team', table: clientTeam, keys: ['clientId', 'memberId'] },
  { name: 'contacts', table: clientUsers, keys: ['id'] },
  { name: 'contact-clients', table: clientUserClients, keys: ['clientUserId', 'clientId'] },
  { name: 'services', table: services, keys: ['id'] },
  { name: 'project-templates', table: projectTemplates, keys: ['id'] },
  { name: 'project-template-tasks', table: templateTasks, keys: ['id'] },
  // Automations (issue 41): a template's stages, the firm's rules and their run history.
  { name: 'project-template-stages', table: templateStages, keys: ['id'] },
  { name: 'automation-rules', table: automationRules, keys: ['id'] },
  { name: 'automation-runs', table: automationRuns, keys: ['id'] },
  { name: 'engagements', table: clientServices, keys: ['id'] },
  { name: 'engagement-assignees', table: clientServiceAssignees, keys: ['clientServiceId', 'memberId'] },
  { name: 'projects', table: projects, keys: ['id'] },
  { name: 'project-members', table: projectMembers, keys: ['projectId', 'memberId'] },
  { name: 'tasks', table: tasks, keys: ['id'] },
  {
    name: 'task-checklists',
    table: tasks,
    keys: ['id'],
    explode: { column: 'checklist', parent: 'taskId', of: 'tasks', fields: ['id', 'text', 'done'] },
  },
  { name: 'task-assignees', table: taskAssignees, keys: ['taskId', 'memberId'] },
  { name: 'task-comments', table: taskComments, keys: ['id'] },
  { name: 'task-attachments', table: taskAttachments, keys: ['taskId', 'documentId'] },
  { name: 'reminders', table: reminders, keys: ['id'] },
  { name: 'reminder-members', table: reminderMembers, keys: ['reminderId', 'memberId'] },
  { name: 'reminder-deliveries', table: reminderDeliveries, keys: ['id'] },
  { name: 'document-folders', table: documentFolders, keys: ['id'] },
  { name: 'documents', table: documents, keys: ['id'] },
  // Billing (issue 35): the settings row is the firm's own (its key is the firm), so it has no key.
  { name: 'billing-settings', table: billingSettings, keys: [] },
  { name: 'client-billing', table: clientBilling, keys: ['clientId'] },
  { name: 'invoice-counters', table: invoiceCounters, keys: ['series', 'fiscalYear'] },
  { name: 'invoices', table: invoices, keys: ['id'] },
  { name: 'invoice-lines', table: invoiceLines, keys: ['id'] },
  { name: 'disbursements', table: disbursements, keys: ['id'] },
  { name: 'payments', table: payments, keys: ['id'] },
  { name: 'allocations', table: allocations, keys: ['id'] },
  { name: 'invoice-reminder-steps', table: invoiceReminderSteps, keys: ['invoiceId', 'step'] },
  { name: 'invoice-deliveries', table: invoiceDeliveries, keys: ['id'] },
  // Client requests (issue 36): templates, requests, who they went to, items with their answers.
  { name: 'request-templates', table: requestTemplates, keys: ['id'] },
  { name: 'requests', table: requests, keys: ['id'] },
  { name: 'request-recipients', table: requestRecipients, keys: ['requestId', 'clientUserId'] },
  { name: 'request-items', table: requestItems, keys: ['id'] },
  { name: 'request-item-files', table: requestItemFiles, keys: ['id'] },
  { name: 'project-template-requests', table: projectTemplateRequests, keys: ['projectTemplateId'] },
  // Proposals (issue 37): templates, proposals, signers (no link, code or session secrets), the
  // audit trail. The signed PDFs are documents, in the client's "Signed agreements" folder.
  { name: 'proposal-templates', table: proposalTemplates, keys: ['id'] },
  { name: 'proposals', table: proposals, keys: ['id'] },
  {
    name: 'proposal-signers',
    table: proposalSigners,
    keys: ['id'],
    omit: ['linkHash', 'codeHash', 'codeExpiresAt', 'codeAttempts', 'sessionHash', 'sessionExpiresAt'],
  },
  { name: 'proposal-events', table: proposalEvents, keys: ['id'] },
  // Client messages (issue 38): threads, who is on them (and what they read), messages and their
  // files (documents of the client's Messages folder, in documents/), and mail held for review.
  { name: 'message-threads', table: messageThreads, keys: ['id'] },
  { name: 'message-thread-members', table: messageThreadMembers, keys: ['threadId', 'memberId'] },
  { name: 'message-thread-contacts', table: messageThreadClientUsers, keys: ['threadId', 'clientUserId'] },
  { name: 'messages', table: messages, keys: ['id'] },
  { name: 'message-attachments', table: messageAttachments, keys: ['documentId'] },
  { name: 'messages-held', table: messagesHeld, keys: ['id'] },
  // What files a held mail came with (their bytes stay out: a stranger's, not yet reviewed).
  { name: 'message-held-files', table: messageHeldFiles, keys: ['id'] },
  { name: 'message-mail-ids', table: messageMailIds, keys: ['messageIdHeader'] },
  { name: 'system-log', table: systemLog, keys: ['id'] },
];

/** The columns a table's file holds, by their TypeScript name (the CSV header), in schema order. */
export function exportColumns(spec: TExportTable): [string, PgColumn][] {
  const omit = new Set([...ALWAYS_OMIT, ...(spec.omit ?? [])]);
  return Object.entries(getTableColumns(spec.table)).filter(([key]) => !omit.has(key));
}

/** The CSV header of a file. */
export function exportHeaders(spec: TExportTable): string[] {
  return spec.explode
    ? [spec.explode.parent, 'position', ...spec.explode.fields]
    : exportColumns(spec).map(([key]) => key);
}

/**
 * The links between the files, read from the schema's own foreign keys (`tasks.projectId →
 * projects.id`). Keys to tables the export leaves out, or to the firm itself, are not listed.
 */
export function exportLinks(): { from: string; to: string }[] {
  const byTable = new Map(EXPORT_TABLES.filter((t) => !t.explode).map((t) => [getTableName(t.table), t]));
  const links: { from: string; to: string }[] = [];
  for (const spec of EXPORT_TABLES) {
    if (spec.explode) {
      links.push({ from: `${spec.name}.${spec.explode.parent}`, to: `${spec.explode.of}.id` });
      continue;
    }
    const keyOf = new Map(exportColumns(spec).map(([key, col]) => [col.name, key]));
    for (const fk of getTableConfig(spec.table).foreignKeys) {
      const ref = fk.reference();
      const target = byTable.get(getTableName(ref.foreignTable));
      if (!target) continue;
      const targetKeyOf = new Map(exportColumns(target).map(([key, col]) => [col.name, key]));
      ref.columns.forEach((col, i) => {
        const from = keyOf.get(col.name);
        const to = targetKeyOf.get(ref.foreignColumns[i]?.name ?? '');
        if (from && to) links.push({ from: `${spec.name}.${from}`, to: `${target.name}.${to}` });
      });
    }
  }
  return links;
}
