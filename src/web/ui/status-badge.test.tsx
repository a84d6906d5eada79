// @vitest-environment happy-dom
import { render, screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { StatusBadge } from './status-badge';
import './test-setup';

const now = new Date('2026-11-22T10:00:00Z');

describe('StatusBadge', () => {
  it.each([
    ['SCHEDULED', 'Scheduled', 'grey'],
    ['IN_PROGRESS', 'In Progress', 'blue'],
    ['IN_REVIEW', 'In Review', 'yellow'],
    ['COMPLETED', 'Completed', 'green'],
    ['OVERDUE', 'Overdue', 'red'],
    ['UNKNOWN', 'Unknown', 'light-grey'],
  ])('shows %s as "%s" in %s', (status, label, colour) => {
    render(<StatusBadge status={status} />);
    expect(screen.getByText(label)).toHaveAttribute('data-colour', colour);
  });

  it('shows anything the spec does not name as Unknown', () => {
    render(<StatusBadge status="ARCHIVED" />);
    expect(screen.getByText('Unknown')).toBeInTheDocument();
  });

  it('derives Overdue for an open item past its due date', () => {
    render(
      <StatusBadge item={{ status: 'IN_PROGRESS', dueDate: '2026-11-20', completedDate: null }} now={now} />,
    );
    expect(screen.getByText('Overdue')).toHaveAttribute('data-colour', 'red');
    expect(screen.queryByText('In Progress')).not.toBeInTheDocument();
  });

  it('keeps the stored status when the item was completed, even late', () => {
    render(
      <StatusBadge
        item={{ status: 'COMPLETED', dueDate: '2026-11-20', completedDate: '2026-11-21' }}
        now={now}
      />,
    );
    expect(screen.getByText('Completed')).toBeInTheDocument();
  });

  it('keeps the stored status before the due date', () => {
    render(<StatusBadge item={{ status: 'IN_REVIEW', dueDate: '2026-12-01' }} now={now} />);
    expect(screen.getByText('In Review')).toBeInTheDocument();
  });
});
