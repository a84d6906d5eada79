import { describe, expect, it } from 'vitest';
import { dropInOrder, moveInOrder, POSITION_STEP, positionBetween, ZTaskReorder } from './tasks';

describe('positionBetween', () => {
  it('takes the midpoint, or a step beyond an edge', () => {
    expect(positionBetween(1, 2)).toBe(1.5);
    expect(positionBetween(null, 0)).toBe(-POSITION_STEP);
    expect(positionBetween(5, null)).toBe(5 + POSITION_STEP);
  });
  it('answers null when the neighbours tie, are out of order or leave no room', () => {
    expect(positionBetween(0, 0)).toBeNull();
    expect(positionBetween(3, 1)).toBeNull();
    expect(positionBetween(1, 1 + Number.EPSILON)).toBeNull();
    expect(positionBetween(null, null)).toBeNull();
  });
});

describe('moving within a column', () => {
  const order = ['a', 'b', 'c'];
  it('moves one place up or down, and not past the edges', () => {
    expect(moveInOrder(order, 'b', -1)).toEqual(['b', 'a', 'c']);
    expect(moveInOrder(order, 'b', 1)).toEqual(['a', 'c', 'b']);
    expect(moveInOrder(order, 'a', -1)).toBeNull();
    expect(moveInOrder(order, 'c', 1)).toBeNull();
    expect(moveInOrder(order, 'x', 1)).toBeNull();
  });
  it('drops a card into the place of the card it is dropped on', () => {
    expect(dropInOrder(order, 'a', 'c')).toEqual(['b', 'c', 'a']);
    expect(dropInOrder(order, 'c', 'a')).toEqual(['c', 'a', 'b']);
    expect(dropInOrder(order, 'b', 'b')).toBeNull();
  });
  it('checks the reorder input', () => {
    const id = '0196c2a0-0000-7000-8000-000000000001';
    const other = '0196c2a0-0000-7000-8000-000000000002';
    expect(ZTaskReorder.safeParse({ taskId: id, order: [other, id] }).success).toBe(true);
    expect(ZTaskReorder.safeParse({ taskId: id, order: [other, other] }).error?.issues[0]?.message).toBe(
      'The moved task is not in the column',
    );
    expect(ZTaskReorder.safeParse({ taskId: id, order: [id, id] }).error?.issues[0]?.message).toBe(
      'A task appears twice in the column',
    );
  });
});
