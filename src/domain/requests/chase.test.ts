import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { addDays } from '../days';
import {
  chaseStepDay,
  chaseStepOn,
  DEFAULT_CHASE,
  describeChase,
  nextChaseDay,
  type TChaseSchedule,
  ZChaseSchedule,
} from './chase';

const due = '2026-12-10';

describe('the chase schedule', () => {
  it('names the step a request is at, day by day, on the firm default', () => {
    const sent = '2026-11-20';
    const days = [
      '2026-12-02',
      '2026-12-03',
      '2026-12-08',
      '2026-12-09',
      '2026-12-10',
      '2026-12-12',
      '2026-12-13',
    ];
    expect(days.map((d) => chaseStepOn(DEFAULT_CHASE, due, sent, d))).toEqual([
      null,
      'before:7',
      'before:7',
      'before:1',
      'due',
      'due',
      'after:1',
    ]);
    expect(chaseStepOn(DEFAULT_CHASE, due, sent, '2026-12-16')).toBe('after:2');
  });

  it('skips the steps that fell before the request was sent', () => {
    // Sent three days before the due date: no week-before reminder, the day-before one still goes.
    expect(chaseStepOn(DEFAULT_CHASE, due, '2026-12-07', '2026-12-07')).toBeNull();
    expect(chaseStepOn(DEFAULT_CHASE, due, '2026-12-07', '2026-12-08')).toBeNull();
    expect(chaseStepOn(DEFAULT_CHASE, due, '2026-12-07', '2026-12-09')).toBe('before:1');
    // Sent after its due date: the first reminder is the next "every 3 days" step.
    expect(chaseStepOn(DEFAULT_CHASE, due, '2026-12-11', '2026-12-12')).toBeNull();
    expect(chaseStepOn(DEFAULT_CHASE, due, '2026-12-11', '2026-12-13')).toBe('after:1');
  });

  it('gives a missed due-date reminder a few days when nothing follows it', () => {
    const dueOnly = { beforeDays: [], onDue: true, everyDays: null };
    expect(
      ['2026-12-09', '2026-12-10', '2026-12-13', '2026-12-14'].map((d) =>
        chaseStepOn(dueOnly, due, '2026-12-01', d),
      ),
    ).toEqual([null, 'due', 'due', null]);
  });

  it('tells the next reminder day, skipping steps already sent', () => {
    const sent = new Set(['before:7']);
    expect(nextChaseDay(DEFAULT_CHASE, due, '2026-11-20', '2026-12-04', sent)).toBe('2026-12-09');
    expect(nextChaseDay(DEFAULT_CHASE, due, '2026-11-20', '2026-12-10', new Set())).toBe('2026-12-13');
    expect(
      nextChaseDay(
        { beforeDays: [2], onDue: false, everyDays: null },
        due,
        '2026-11-20',
        '2026-12-09',
        new Set(),
      ),
    ).toBeNull();
  });

  it('reads the schedule the way the form writes it', () => {
    expect(ZChaseSchedule.parse({ beforeDays: [1, 7, 7], onDue: true, everyDays: undefined })).toEqual({
      beforeDays: [7, 1],
      onDue: true,
      everyDays: null,
    });
    expect(ZChaseSchedule.safeParse({ beforeDays: [0], onDue: true, everyDays: 3 }).success).toBe(false);
    expect(ZChaseSchedule.safeParse({ beforeDays: [], onDue: true, everyDays: 91 }).success).toBe(false);
    expect(describeChase(DEFAULT_CHASE)).toBe(
      '7 and 1 days before, on the due date, then every 3 days after',
    );
  });

  const schedules = fc.record<TChaseSchedule>({
    beforeDays: fc.uniqueArray(fc.integer({ min: 1, max: 60 }), { maxLength: 5 }),
    onDue: fc.boolean(),
    everyDays: fc.option(fc.integer({ min: 1, max: 90 }), { nil: null }),
  });
  const offsets = fc.integer({ min: -90, max: 200 });

  it('never answers a step before it falls, nor one that fell by the sending day', () => {
    fc.assert(
      fc.property(schedules, offsets, offsets, (schedule, sentOffset, todayOffset) => {
        const sentDay = addDays(due, sentOffset);
        const today = addDays(due, Math.max(sentOffset, todayOffset));
        const step = chaseStepOn(schedule, due, sentDay, today);
        if (step === null) return;
        const day = chaseStepDay(schedule, due, step);
        expect(day <= today).toBe(true);
        expect(day > sentDay).toBe(true);
      }),
    );
  });

  it('walking day by day, sends each step at most once and every step after the sending day', () => {
    fc.assert(
      fc.property(schedules, fc.integer({ min: -70, max: 10 }), (schedule, sentOffset) => {
        const sentDay = addDays(due, sentOffset);
        const sent: string[] = [];
        for (let d = 0; d <= 120; d++) {
          const today = addDays(sentDay, d);
          const step = chaseStepOn(schedule, due, sentDay, today);
          if (step && !sent.includes(step)) sent.push(step);
          // The page's "next reminder" is the day the walk sends next.
          const next = nextChaseDay(schedule, due, sentDay, today, new Set(sent));
          if (next) expect(next > today).toBe(true);
        }
        expect(new Set(sent).size).toBe(sent.length);
        // Days strictly increase: reminders come in the schedule's order.
        const daysOf = sent.map((s) => chaseStepDay(schedule, due, s));
        expect([...daysOf].sort()).toEqual(daysOf);
        const expected = [
          ...schedule.beforeDays.filter((k) => addDays(due, -k) > sentDay),
          ...(schedule.onDue && due > sentDay ? ['due'] : []),
        ].length;
        const counted = sent.filter((s) => !s.startsWith('after:')).length;
        expect(counted).toBe(expected);
      }),
      { numRuns: 40 },
    );
  });
});
