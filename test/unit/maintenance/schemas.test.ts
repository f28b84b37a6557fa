// Input schemas and their 400 answers: query parameters, task and stock-level bodies.
import { describe, expect, it } from 'vitest';
import { refusal } from '../../support/refusal';
import { parseInput } from '../../../lib/core/input';
import { dateRange, pageRequest } from '../../../lib/maintenance/input';
import {
  jobsDoneQuery,
  jobsPlannedQuery,
  stockLevelInput,
  taskInput,
  tasksQuery,
} from '../../../lib/maintenance/schemas';
import { parseIfMatch } from '../../../lib/maintenance/stock';
import { INVENTORY_UNITS } from '../../../lib/registry/units';

describe('query parameters', () => {
  it('defaults page 1 and pageSize 100 and parses digits', () => {
    expect(pageRequest(parseInput(jobsDoneQuery, {}, 'query'))).toEqual({ page: 1, pageSize: 100 });
    expect(pageRequest(parseInput(jobsDoneQuery, { page: '3', pageSize: '1000' }, 'query'))).toEqual({
      page: 3,
      pageSize: 1000,
    });
  });

  it.each([
    ['page', '0'],
    ['page', '-2'],
    ['page', '2.0'],
    ['page', ' 1'],
    ['page', '0x10'],
    ['pageSize', '0'],
    ['pageSize', '1001'],
    ['pageSize', ''],
    ['startDate', '2025-2-1'],
    ['endDate', '2023-02-29'],
  ])('refuses %s=%s with 400 naming it', (name, value) => {
    const error = refusal(() => parseInput(jobsDoneQuery, { [name]: value }, 'query'));
    expect(error.code).toBe('INVALID_INPUT');
    expect(error.data[0]).toMatchObject({ field: name });
  });

  it('refuses unknown parameters by name and reversed ranges on endDate', () => {
    expect(refusal(() => parseInput(tasksQuery, { status: 'PENDING' }, 'query')).data[0]).toMatchObject({
      field: 'status',
      message: 'unknown query parameter',
    });
    expect(refusal(() => dateRange({ startDate: '2025-02-02', endDate: '2025-02-01' })).data[0]).toMatchObject({
      field: 'endDate',
    });
    expect(dateRange({ startDate: '2025-02-01', endDate: '2025-02-01' })).toEqual({
      start: '2025-02-01',
      end: '2025-02-01',
    });
  });

  it('accepts the asset filters and the seven task statuses only', () => {
    expect(parseInput(jobsPlannedQuery, { assetTagNumber: ' P-1 ' }, 'query')).toEqual({ assetTagNumber: 'P-1' });
    for (const s of [
      'PENDING',
      'POSTPONED',
      'NEED_CONFIRMATION',
      'POSTPONEMENT_NEED_APPROVAL',
      'NEED_APPROVAL',
      'CLOSED',
      'NOT_CLOSED',
    ])
      expect(parseInput(tasksQuery, { taskStatus: s }, 'query')).toEqual({ taskStatus: s });
    expect(refusal(() => parseInput(tasksQuery, { taskStatus: 'Pending' }, 'query')).data[0]).toMatchObject({
      field: 'taskStatus',
    });
  });
});

describe('bodies', () => {
  const task = { taskTitle: 'T', activityKind: 'Inspection', assignedToRole: 'Mechanic', priority: 'Low' };

  it('needs the three lookups and the title; everything else is optional', () => {
    expect(parseInput(taskInput, task, 'body')).toEqual(task);
    const error = refusal(() => parseInput(taskInput, { taskTitle: 'T' }, 'body'));
    expect(error.data.map((d) => d.field)).toEqual(['activityKind', 'assignedToRole', 'priority']);
    expect(error.data[0]).toMatchObject({ message: 'is required' });
  });

  it('refuses read-only and unknown fields and malformed dates', () => {
    expect(refusal(() => parseInput(taskInput, { ...task, department: 'X' }, 'body')).data[0]).toMatchObject({
      field: 'department',
    });
    expect(
      refusal(() => parseInput(taskInput, { ...task, asset: { tagNumber: 'A', serialNumber: 'B' } }, 'body')).data[0],
    ).toMatchObject({ field: 'asset.serialNumber' });
    expect(refusal(() => parseInput(taskInput, { ...task, incidentDate: '2025-02-29' }, 'body')).data[0]).toMatchObject(
      { field: 'incidentDate' },
    );
    expect(refusal(() => parseInput(taskInput, null, 'body')).data[0]).toMatchObject({ field: 'body' });
  });

  it('takes a finite quantity >= 0 and only the fixed units', () => {
    for (const unit of INVENTORY_UNITS)
      expect(parseInput(stockLevelInput, { id: 'P', quantity: 0, unit }, 'body').unit).toBe(unit);
    for (const quantity of [-0.001, Number.POSITIVE_INFINITY, Number.NaN, '1'])
      expect(refusal(() => parseInput(stockLevelInput, { id: 'P', quantity }, 'body')).data[0]).toMatchObject({
        field: 'quantity',
      });
    expect(
      refusal(() => parseInput(stockLevelInput, { id: 'P', quantity: 1, unit: 'piece' }, 'body')).data[0],
    ).toMatchObject({ field: 'unit' });
  });

  it('reads If-Match as a version', () => {
    expect([
      parseIfMatch(undefined),
      parseIfMatch('"3"'),
      parseIfMatch('W/"12"'),
      parseIfMatch('7'),
      parseIfMatch('*'),
    ]).toEqual([undefined, 3, 12, 7, '*']);
    expect(refusal(() => parseIfMatch('"0"')).data[0]).toMatchObject({ field: 'If-Match' });
  });
});
