import { ADMIN_SECTIONS, type TAdminSection } from '@domain/admin';
import { hasPermission } from '@domain/permissions';
import { Link } from '@tanstack/react-router';
import { PageHeader } from '@web/ui';
import {
  Briefcase,
  Building2,
  CalendarDays,
  CalendarHeart,
  ChevronRight,
  ClipboardList,
  FileSignature,
  LayoutTemplate,
  type LucideIcon,
  Mail,
  Megaphone,
  ReceiptText,
  ScrollText,
  ShieldCheck,
  UsersRound,
  Workflow,
} from 'lucide-react';
import { NoAccess } from '../shell/access';
import { useProfile } from '../shell/use-profile';

const SECTION_TEXT: Record<TAdminSection['key'], { title: string; text: string; icon: LucideIcon }> = {
  roles: {
    title: 'Roles',
    text: 'Who may do what: the seeded roles and your own, with their rights area by area.',
    icon: ShieldCheck,
  },
  systemLog: {
    title: 'System log',
    text: 'Every change made in the firm: who, what, when and from where. Filter and export it.',
    icon: ScrollText,
  },
  settings: {
    title: 'Firm settings',
    text: 'Name, logo, address, time zone, currency, fiscal year and tax identifiers.',
    icon: Building2,
  },
  billingSettings: {
    title: 'Billing settings',
    text: 'Tax profile, invoice numbering, due days and terms, bank and UPI details, payment reminders.',
    icon: ReceiptText,
  },
  services: {
    title: 'Services',
    text: 'The catalogue of what the firm does: frequency, due-date rule, default fee, and who takes each.',
    icon: Briefcase,
  },
  clientGroups: {
    title: 'Client groups',
    text: 'Families and business groups of clients, and who belongs to each.',
    icon: UsersRound,
  },
  projectTemplates: {
    title: 'Project templates',
    text: 'The tasks a project starts with; linked to a service, they make each period’s work.',
    icon: LayoutTemplate,
  },
  broadcasts: {
    title: 'Broadcasts',
    text: 'Mail the firm’s clients in bulk, personal to each, with every delivery accounted for.',
    icon: Megaphone,
  },
  broadcastTemplates: {
    title: 'Broadcast templates',
    text: 'Reusable subjects and messages with placeholders filled for each client.',
    icon: Mail,
  },
  requestTemplates: {
    title: 'Request templates',
    text: 'What a request asks a client for: files and answers, by section, some shown only when needed.',
    icon: ClipboardList,
  },
  proposalTemplates: {
    title: 'Proposal templates',
    text: 'Engagement letters with the packages, add-ons and fees a proposal offers for signature.',
    icon: FileSignature,
  },
  automations: {
    title: 'Automations',
    text: 'Rules that move projects between stages, create tasks and notify people when something happens.',
    icon: Workflow,
  },
  leaveTypes: {
    title: 'Leave types',
    text: 'Kinds of leave and their allowances, the working week, approvals, and each member’s balance.',
    icon: CalendarDays,
  },
  holidays: {
    title: 'Holidays',
    text: 'Each year’s holidays, firm-wide or per office, half days included; import or copy a year.',
    icon: CalendarHeart,
  },
};

/** /admin: the sections of the admin area this member may open, as cards. */
export function AdminIndexPage() {
  const profile = useProfile();
  const granted = { isOwner: profile.isOwner, permissions: profile.permissions };
  const sections = ADMIN_SECTIONS.filter((section) => hasPermission(granted, section.permission));
  if (sections.length === 0) return <NoAccess />;
  return (
    <div className="mx-auto max-w-6xl p-6">
      <PageHeader
        title="Admin"
        description={`Run ${profile.org.name}: roles, records and settings.`}
        trail={[{ label: 'Admin' }]}
      />
      <ul className="grid gap-4 sm:grid-cols-2 lg:grid-cols-3">
        {sections.map((section) => {
          const { title, text, icon: Icon } = SECTION_TEXT[section.key];
          return (
            <li key={section.key}>
              <Link
                to={section.to}
                className="group flex h-full items-start gap-3 rounded-lg border border-border bg-surface p-4 shadow-xs transition-colors hover:border-primary/50 hover:bg-muted/40 focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-ring"
              >
                <span className="grid size-9 shrink-0 place-items-center rounded-md bg-muted text-fg">
                  <Icon aria-hidden="true" className="size-4" />
                </span>
                <span className="min-w-0 flex-1">
                  <span className="flex items-center justify-between gap-2 text-sm font-semibold text-fg">
                    {title}
                    <ChevronRight
                      aria-hidden="true"
                      className="size-4 text-muted-fg transition-transform group-hover:translate-x-0.5"
                    />
                  </span>
                  <span className="mt-1 block text-sm text-muted-fg">{text}</span>
                </span>
              </Link>
            </li>
          );
        })}
      </ul>
    </div>
  );
}
