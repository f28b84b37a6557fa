// Demo maintenance records of demo-plant-1 for `npm start`: assets, jobs done in the last 90 days,
// jobs planned for the next 60 days and tasks in several states. Deterministic ids, so running it
// again replaces the same records (counters stay right) instead of adding more.
import { utcDate } from './dates';
import type { MaintenanceRepository } from './ports';
import type { Asset, JobDone, JobPlanned, Task, TaskStatus } from './records';

const ASSETS: ReadonlyArray<[string, string, string, string]> = [
  ['P-101', 'SN-44871', 'ERP-10001', 'Feed pump'],
  ['P-102', 'SN-44872', 'ERP-10002', 'Feed pump (standby)'],
  ['C-201', 'SN-90210', 'ERP-20001', 'Belt conveyor line 1'],
  ['C-202', 'SN-90211', 'ERP-20002', 'Belt conveyor line 2'],
  ['K-301', 'SN-55120', 'ERP-30001', 'Air compressor'],
  ['M-401', 'SN-77001', 'ERP-40001', 'Mixer drive motor'],
  ['H-501', 'SN-31337', 'ERP-50001', 'Hydraulic power unit'],
  ['B-601', 'SN-60601', 'ERP-60001', 'Boiler'],
];
const KINDS = ['Inspection', 'Preventive maintenance', 'Corrective maintenance', 'Calibration'];
const DEPARTMENTS = ['Production', 'Maintenance', 'Utilities'];
const ROLES = ['Mechanic', 'Electrician', 'Operator', 'Maintenance planner'];
const PRIORITIES = ['Low', 'Medium', 'High', 'Urgent'];
const PEOPLE: ReadonlyArray<[string, string, string]> = [
  ['Anna', 'Jansen', 'ajansen'],
  ['Piet', 'de Vries', 'pdevries'],
  ['Sara', 'Bakker', 'sbakker'],
];

const pick = <T>(list: readonly T[], i: number): T => list[i % list.length] as T;
const day = (now: Date, offsetDays: number) => utcDate(new Date(now.getTime() + offsetDays * 86_400_000));

export interface MaintenanceDemoCounts {
  readonly assets: number;
  readonly jobsDone: number;
  readonly jobsPlanned: number;
  readonly tasks: number;
}

export function demoAssets(plantId: string): Asset[] {
  return ASSETS.map(([tagNumber, serialNumber, externalReference, description]) => ({
    tagNumber,
    plantId,
    serialNumber,
    externalReference,
    description,
    manufacturer: 'Demo Industries',
    model: `${tagNumber[0]}-series`,
    location: 'Hall A',
  }));
}

export async function seedMaintenanceDemo(
  repository: MaintenanceRepository,
  options: { plantId: string; now: Date },
): Promise<MaintenanceDemoCounts> {
  const { plantId, now } = options;
  const assets = demoAssets(plantId);
  const ref = (i: number) => {
    const a = pick(assets, i);
    return { tagNumber: a.tagNumber, serialNumber: a.serialNumber, externalReference: a.externalReference };
  };
  const jobsDone: JobDone[] = Array.from({ length: 60 }, (_, i) => {
    const [firstname, lastname, username] = pick(PEOPLE, i);
    return {
      id: `JD-${String(i + 1).padStart(4, '0')}`,
      plantId,
      jobTitle: `${pick(KINDS, i)} of ${pick(assets, i).description}`,
      doneDate: day(now, -90 + i * 1.5),
      dueDate: day(now, -91 + i * 1.5),
      activityKind: pick(KINDS, i),
      department: pick(DEPARTMENTS, i),
      totalTimeUsedInHours: String(0.5 + (i % 8) * 0.75),
      requiredPersonCount: 1 + (i % 3),
      isFinal: i % 5 !== 0,
      asset: ref(i),
      workOrder: { id: `WO-${5000 + i}`, remark: i % 4 === 0 ? 'Found wear, replaced part' : null },
      carriedOutByUser: { firstname, lastname, username },
      partsUsed:
        i % 3 === 0
          ? [
              {
                partNumber: 'BRG-6204-2RS',
                description: 'Deep groove ball bearing 6204-2RS',
                quantity: 2,
                unit: 'PIECE',
              },
            ]
          : [],
    };
  });
  const jobsPlanned: JobPlanned[] = Array.from({ length: 20 }, (_, i) => ({
    id: `JP-${String(i + 1).padStart(4, '0')}`,
    plantId,
    jobTitle: `${pick(KINDS, i + 1)} of ${pick(assets, i).description}`,
    dueDate: day(now, 1 + i * 3),
    activityKind: pick(KINDS, i + 1),
    department: pick(DEPARTMENTS, i),
    estimatedTimeInHours: String(1 + (i % 4)),
    requiredPersonCount: 1 + (i % 2),
    asset: ref(i),
    workOrder: { id: `WO-${6000 + i}`, remark: null },
  }));
  const statuses: TaskStatus[] = [
    'PENDING',
    'PENDING',
    'POSTPONED',
    'NEED_CONFIRMATION',
    'NEED_APPROVAL',
    'CLOSED',
    'CLOSED',
    'NOT_CLOSED',
  ];
  const tasks: Task[] = statuses.map((taskStatus, i) => ({
    id: `TK-${String(i + 1).padStart(4, '0')}`,
    plantId,
    taskTitle: `Check ${pick(assets, i).description}`,
    taskDescription: i % 2 === 0 ? 'Reported by the operator during the shift round' : null,
    activityKind: pick(KINDS, i),
    assignedToRole: pick(ROLES, i),
    priority: pick(PRIORITIES, i),
    taskStatus,
    createdDate: day(now, -20 + i * 2),
    dueDate: day(now, -10 + i * 3),
    incidentDate: i % 3 === 0 ? day(now, -21 + i * 2) : null,
    asset: ref(i),
  }));
  await repository.putAssets(plantId, assets);
  await repository.putJobsDone(plantId, jobsDone);
  await repository.putJobsPlanned(plantId, jobsPlanned);
  await repository.putTasks(plantId, tasks);
  return { assets: assets.length, jobsDone: jobsDone.length, jobsPlanned: jobsPlanned.length, tasks: tasks.length };
}
