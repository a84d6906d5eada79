import { describe, expect, it } from 'vitest';
import { parseProjectsSearch, projectsListInput } from './projects-search';

const id = '01a2022a-4ef6-74bd-b4fb-b6d26c2f950a';

describe('projects URL search', () => {
  it('keeps valid filters and drops hand-edited nonsense', () => {
    expect(
      parseProjectsSearch({
        page: 2,
        status: 'OVERDUE',
        clientId: id,
        serviceId: 'not-a-uuid',
        dueFrom: '2026-01-01',
        dueTo: 'soon',
        sort: 'owner',
        view: 'board',
        periodKey: ' 2026-Q1 ',
      }),
    ).toEqual({
      page: 2,
      pageSize: undefined,
      sort: undefined,
      direction: undefined,
      search: undefined,
      status: 'OVERDUE',
      completed: undefined,
      clientId: id,
      serviceId: undefined,
      memberId: undefined,
      periodKey: '2026-Q1',
      dueFrom: '2026-01-01',
      dueTo: undefined,
      archived: undefined,
      view: 'board',
    });
  });

  it('builds the list input with defaults, the scope fixed, and an inverted range dropped', () => {
    const input = projectsListInput(
      { clientId: id, dueFrom: '2026-05-01', dueTo: '2026-04-01', view: 'list' },
      { clientId: 'fixed-client' },
    );
    expect(input).toMatchObject({
      page: 1,
      pageSize: 25,
      sort: 'dueDate',
      direction: 'asc',
      archived: false,
      clientId: 'fixed-client',
      dueFrom: '2026-05-01',
      dueTo: undefined,
    });
    expect(input).not.toHaveProperty('view');
  });

  it('opens on open work; completed only when asked for and no status is chosen', () => {
    expect(projectsListInput(parseProjectsSearch({}))).not.toHaveProperty('includeCompleted');
    expect(parseProjectsSearch({ completed: 'yes' }).completed).toBeUndefined();
    const all = projectsListInput(parseProjectsSearch({ completed: true }));
    expect(all).toMatchObject({ includeCompleted: true });
    expect(all).not.toHaveProperty('completed');
    expect(projectsListInput({ completed: true, status: 'OVERDUE' })).not.toHaveProperty('includeCompleted');
  });
});
