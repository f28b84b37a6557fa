// The maintenance adapter's lists: a page of a date-ordered collection is located with the day
// and month counters and read with one index range Query (docs/dynamodb.md, "Maintenance"); an
// asset's planned jobs and the asset register are read whole and cut here (both are small).
import { firstDayOf, lastDayOf, type DateRange } from '../../maintenance/dates';
import type { PageWindow } from '../../maintenance/paging';
import type { AssetFilter, Slice } from '../../maintenance/ports';
import type { Asset, JobPlanned } from '../../maintenance/records';
import { assetItem, counterItem, jobPlannedItem } from './item-schemas';
import { parseItem } from './items';
import { maintenanceKeys as mk } from './keys';
import { counterPlan, locate, totalOf, type CountUnit } from './maintenance-counters';
import * as params from './maintenance-params';
import type { StoredItem, TableReader } from './table-reader';

export interface MaintenanceLists {
  listDated<T>(
    kind: params.RecordKind<T>,
    plantId: string,
    collection: string,
    index: 'GSI1' | 'GSI2',
    range: DateRange,
    window: PageWindow,
  ): Promise<Slice<T>>;
  listPlannedOfAsset(
    plantId: string,
    range: DateRange,
    filter: AssetFilter,
    window: PageWindow,
  ): Promise<Slice<JobPlanned>>;
  listAssets(plantId: string, window: PageWindow): Promise<Slice<Asset>>;
}

export function maintenanceLists(reader: TableReader): MaintenanceLists {
  async function counters(
    plantId: string,
    collection: string,
    level: 'D' | 'M',
    from: string,
    to: string,
  ): Promise<CountUnit[]> {
    const items = await reader.query(params.counterQuery(plantId, collection, level, from, to));
    return items.map((i) => {
      const counter = parseItem(counterItem, 'Counter', i);
      return {
        kind: level === 'D' ? 'day' : 'month',
        period: counter.SK.slice(counter.SK.lastIndexOf('#') + 1),
        n: counter.n,
      };
    });
  }

  async function countUnits(plantId: string, collection: string, range: DateRange): Promise<CountUnit[]> {
    const plan = counterPlan(range);
    const [head, months, tail] = await Promise.all([
      plan.headDays ? counters(plantId, collection, 'D', plan.headDays.from, plan.headDays.to) : [],
      plan.months ? counters(plantId, collection, 'M', plan.months.from, plan.months.to) : [],
      plan.tailDays ? counters(plantId, collection, 'D', plan.tailDays.from, plan.tailDays.to) : [],
    ]);
    return [...head, ...months, ...tail];
  }

  /** The day the page starts in and how many records of that day come before it. */
  async function pageStart(
    plantId: string,
    collection: string,
    units: CountUnit[],
    range: DateRange,
    offset: number,
  ): Promise<{ fromDay: string; skip: number }> {
    let found = locate(units, offset);
    if (found?.unit.kind === 'month') {
      const days = await counters(
        plantId,
        collection,
        'D',
        firstDayOf(found.unit.period),
        lastDayOf(found.unit.period),
      );
      const inMonth = locate(days, offset - found.before);
      found = inMonth ? { unit: inMonth.unit, before: found.before + inMonth.before } : undefined;
    }
    // Month and day counters disagreeing (a write in flight): skip from the range start instead.
    return found ? { fromDay: found.unit.period, skip: offset - found.before } : { fromDay: range.start, skip: offset };
  }

  /** Asset tags matching every given asset field (one index Query per field). */
  async function tagsOf(plantId: string, filter: AssetFilter): Promise<string[]> {
    if (filter.tagNumber !== undefined) return [filter.tagNumber];
    const lookups = (['serialNumber', 'externalReference'] as const).flatMap((by) => {
      const value = filter[by];
      return value === undefined ? [] : [reader.query(params.assetsBy(plantId, by, value))];
    });
    const sets = (await Promise.all(lookups)).map((assets) =>
      assets.map((a) => parseItem(assetItem, 'Asset', a).tagNumber),
    );
    return (sets[0] ?? []).filter((t) => sets.every((s) => s.includes(t)));
  }

  return {
    async listDated(kind, plantId, collection, index, range, window) {
      const units = await countUnits(plantId, collection, range);
      const total = totalOf(units);
      if (window.offset >= total || window.limit === 0) return { items: [], total };
      const { fromDay, skip } = await pageStart(plantId, collection, units, range, window.offset);
      const items = await reader.query(
        params.collectionQuery(index, mk.collection(plantId, collection), fromDay, range.end),
        skip + window.limit,
      );
      return { items: items.slice(skip, skip + window.limit).map((i) => parseItem(kind.schema, kind.type, i)), total };
    },

    async listPlannedOfAsset(plantId, range, filter, window) {
      const tags = await tagsOf(plantId, filter);
      const pages = await Promise.all(
        tags.map((tag) => reader.query(params.plannedOfAssetQuery(plantId, tag, range, filter))),
      );
      const all: StoredItem[] = pages.flat().sort((a, b) => String(a.GSI2SK).localeCompare(String(b.GSI2SK)));
      return {
        items: all
          .slice(window.offset, window.offset + window.limit)
          .map((i) => parseItem(jobPlannedItem, 'JobPlanned', i)),
        total: all.length,
      };
    },

    async listAssets(plantId, window) {
      const counter = await reader.get(mk.total(plantId, 'ASSET'));
      const total = counter ? parseItem(counterItem, 'Counter', counter).n : 0;
      if (window.offset >= total || window.limit === 0) return { items: [], total };
      // The skipped assets are read, not returned (asset registers are small).
      const items = await reader.query(params.assetsQuery(plantId), window.offset + window.limit);
      return { items: items.slice(window.offset).map((i) => parseItem(assetItem, 'Asset', i)), total };
    },
  };
}
