// `insights-admin import <kind> (--plant P | --customer C) [--skip-invalid] [--format json|csv] FILE`
// (docs/admin-cli.md): finds the plant and customer, then runs the shared import mechanics with
// the kind's progress on stderr; a file that cannot be read as records is INVALID_INPUT.
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { AppError } from '../../core/errors';
import { ImportFileError } from '../../import/records';
import { runImport, type ImportReport } from '../../import/run';
import { UsageError } from '../args';
import { countProgress } from '../progress';
import type { Command } from './command';
import { IMPORT_KINDS } from './import-kinds';

export const IMPORT_COMMAND: Command = {
  usage: `insights-admin import <${Object.keys(IMPORT_KINDS).join('|')}> (--plant P | --customer C) [--skip-invalid] [--format json|csv] FILE`,
  summary: 'import records from JSON or CSV: all rows valid or nothing written; safe to run twice',
  options: {
    plant: { type: 'string' },
    customer: { type: 'string' },
    'skip-invalid': { type: 'boolean' },
    format: { type: 'string' },
  },
  positionals: true,
  run: async (v, positionals, t, io) => {
    const [kindName, file, ...extra] = positionals;
    if (kindName === undefined || file === undefined || extra.length > 0)
      throw new UsageError('expected a kind and one FILE');
    // Own keys only: `in` would also take inherited names such as "toString".
    const kind = Object.hasOwn(IMPORT_KINDS, kindName) ? IMPORT_KINDS[kindName] : undefined;
    if (kind === undefined)
      throw new UsageError(`unknown kind "${kindName}"; one of ${Object.keys(IMPORT_KINDS).join(', ')}`);
    const format =
      typeof v.format === 'string' ? v.format : path.extname(file).toLowerCase() === '.csv' ? 'csv' : 'json';
    if (format !== 'json' && format !== 'csv') throw new UsageError('--format must be json or csv');
    const plant = typeof v.plant === 'string' ? await t.registry.getPlant(v.plant) : null;
    if (plant === undefined) throw new AppError('NOT_FOUND', `plant "${String(v.plant)}" does not exist`);
    if (!plant && (!kind.companyWideAllowed || typeof v.customer !== 'string'))
      throw new UsageError(kind.companyWideAllowed ? '--plant or --customer is required' : '--plant is required');
    const customer = await t.registry.getCustomer(plant?.customerId ?? (v.customer as string));
    if (!customer) throw new AppError('NOT_FOUND', `customer "${String(v.customer)}" does not exist`);
    const text = await readFile(file, 'utf8').catch((e: Error) => {
      throw new UsageError(`cannot read ${file}: ${e.message}`);
    });
    const bar = countProgress(io.stderr, `import ${kindName}`);
    try {
      return await runImport(kind, { registry: t.registry, maintenance: t.maintenance, customer, plant }, text, {
        format,
        skipInvalid: v['skip-invalid'] === true,
        onProgress: bar.update,
      });
    } catch (error) {
      if (error instanceof ImportFileError) throw new AppError('INVALID_INPUT', error.message);
      throw error;
    } finally {
      bar.end();
    }
  },
  text: (r: ImportReport) => {
    const errors = r.errors.map((e) => `  line ${e.line}: ${e.field}: ${e.message}\n`).join('');
    if (!r.wrote)
      return `${errors}${r.errors.length} problem(s) in ${r.rows} rows; nothing written (fix the file, or use --skip-invalid)\n`;
    return `${errors}${r.kind}: ${r.written} rows written${r.skipped > 0 ? `, ${r.skipped} invalid rows skipped` : ''}\n`;
  },
};
