import { describe, expect, it } from 'vitest';
import { parseTasksSearch, tasksListInput } from './tasks-search';

describe('tasks URL search', () => {
  it('opens on open work; completed only when asked for and no status is chosen', () => {
    const plain = tasksListInput(parseTasksSearch({}), {});
    expect(plain).toMatchObject({ view: 'mine', sort: { field: 'dueDate', dir: 'asc' } });
    expect(plain).not.toHaveProperty('status');
    expect(plain).not.toHaveProperty('includeCompleted');
    expect(parseTasksSearch({ completed: 'true' }).completed).toBeUndefined();
    expect(tasksListInput(parseTasksSearch({ completed: true }), {})).toMatchObject({
      includeCompleted: true,
    });
    const chosen = tasksListInput(parseTasksSearch({ completed: true, status: 'COMPLETED,OVERDUE' }), {});
    expect(chosen).toMatchObject({ status: ['COMPLETED', 'OVERDUE'] });
    expect(chosen).not.toHaveProperty('includeCompleted');
  });
});
