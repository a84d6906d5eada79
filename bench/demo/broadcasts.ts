import { BROADCAST_PUMP } from '../../src/server/features/broadcasts';
import type { TDemoEvent, TReminderContext } from './reminders';

// Broadcast templates written on /admin/templates/broadcasts, and a broadcast sent from one of them
// a week ago by the product's own pump: every delivery with its state and the system log's entries.

const DAY_MS = 86_400_000;

const SEASON = {
  name: 'Tax season: documents we need',
  subject: '{{client_name}}: documents we need for {{fiscal_year}}',
  bodyHtml:
    '<p>Dear {{contact_name|client}},</p><p>The filing season for {{fiscal_year}} has begun. To prepare your {{service|returns}} on time, we still need:</p>' +
    '{{pending_items|<p>nothing more for now — thank you!</p>}}' +
    '<p>Upload them in your portal: <a href="{{portal_link}}">{{portal_link}}</a></p><p>Warm regards,<br>{{firm_name}}</p>',
};
const ADVANCE_TAX = {
  name: 'Advance tax instalment due',
  subject: 'Advance tax: the next instalment is due {{due_date|soon}}',
  bodyHtml:
    '<p>Dear {{contact_name|client}},</p><p>A reminder that the next advance tax instalment for {{client_name}} ({{client_code}}) is due <strong>{{due_date|this month}}</strong>.</p>' +
    '<p>Reply to this mail if your income this year differs from last year.</p><p>{{firm_name}}</p>',
};

export function pastBroadcastEvents(ctx: TReminderContext): TDemoEvent[] {
  const admin = ctx.people.find((p) => p.role === 'Admin');
  if (!admin) throw new Error('demo admin missing');
  const api = () => ctx.sessionOf(admin.memberId).api;
  return [
    {
      at: new Date(ctx.now.getTime() - 8 * DAY_MS),
      run: async () => {
        await api().broadcastTemplates.create(SEASON);
        await api().broadcastTemplates.create(ADVANCE_TAX);
      },
    },
    {
      at: new Date(ctx.now.getTime() - 7 * DAY_MS),
      run: async () => {
        const templates = await api().broadcastTemplates.list({});
        const season = templates.rows.find((t) => t.name === SEASON.name);
        // The firm's pace, quick enough for a demo firm's clients.
        await api().broadcasts.updateSettings({ ratePerSecond: 50, dailyCap: 2000 });
        await api().broadcasts.create({
          templateId: season?.id ?? null,
          subject: SEASON.subject,
          bodyHtml: SEASON.bodyHtml,
          audience: { statuses: ['active'] },
          mode: 'client',
        });
        await ctx.session.runJobs([BROADCAST_PUMP]);
      },
    },
  ];
}
