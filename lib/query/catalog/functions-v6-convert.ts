// convert_angle, convert_energy, convert_force, convert_length, convert_mass, convert_speed,
// convert_temperature, convert_volume (their Kusto documentation pages): a value from one unit to
// another through the quantity's base unit, with the factors of functions-v6-units.ts. A unit the
// page does not list gives null ("Invalid units return null"); names are matched exactly, as listed.
// Constant unit names (the usual case) are resolved here, so the SQL is one multiplication; units
// computed per row are looked up with a CASE over the quantity's units.
import type { SqlDialect } from '../sql/dialect';
import { LINEAR_UNITS, TEMPERATURE, type Factors } from './functions-v6-units';
import { constantOf, type ScalarFunction, type SqlBuilder, type SqlCall } from './types';

/** A unit as base = value × scale + offset. */
type Unit = readonly [scale: number, offset: number];
type Units = Readonly<Record<string, Unit>>;

const linear = (factors: Factors): Units =>
  Object.fromEntries(Object.entries(factors).map(([name, f]) => [name, [f, 0] as const]));

/** Tilt, an angle as its sine (UnitsNet: degrees = asin(x) × 180 / π), is converted by its functions. */
const TILT = 'Tilt';

/** SQL of one unit's scale or offset for a unit name known only per row (NULL for an unknown name). */
function unitCase(d: SqlDialect, units: Units, unit: string, part: 0 | 1): string {
  const arms = Object.entries(units).map(([name, u]) => `WHEN ${d.string(name)} THEN ${d.real(u[part])}`);
  return `CASE ${unit} ${arms.join(' ')} END`;
}

const times = (x: string, factor: string): string => `(${x} * ${factor})`;
const plus = (x: string, offset: string): string => `(${x} + ${offset})`;

/** value in the base unit, from a constant or a per-row unit name; null SQL text for an unknown constant. */
function toBase(c: SqlCall, units: Units, x: string, angle: boolean): string | null {
  const name = constantOf(c.args[1]);
  const d = c.d;
  if (typeof name === 'string') {
    if (angle && name === TILT) return `degrees(asin(${x}))`;
    const u = units[name];
    if (!u) return null;
    return u[1] === 0 ? times(x, d.real(u[0])) : plus(times(x, d.real(u[0])), d.real(u[1]));
  }
  const scaled = plus(times(x, unitCase(d, units, c.a[1]!, 0)), unitCase(d, units, c.a[1]!, 1));
  return angle ? `CASE WHEN ${c.a[1]} = ${d.string(TILT)} THEN degrees(asin(${x})) ELSE ${scaled} END` : scaled;
}

/** The base value in the target unit. */
function fromBase(c: SqlCall, units: Units, base: string, angle: boolean): string | null {
  const name = constantOf(c.args[2]);
  const d = c.d;
  if (typeof name === 'string') {
    if (angle && name === TILT) return `sin(radians(${base}))`;
    const u = units[name];
    if (!u) return null;
    return u[1] === 0 ? `(${base} / ${d.real(u[0])})` : `((${base} - ${d.real(u[1])}) / ${d.real(u[0])})`;
  }
  const converted = `((${base} - ${unitCase(d, units, c.a[2]!, 1)}) / ${unitCase(d, units, c.a[2]!, 0)})`;
  return angle ? `CASE WHEN ${c.a[2]} = ${d.string(TILT)} THEN sin(radians(${base})) ELSE ${converted} END` : converted;
}

function converter(units: Units, angle = false): SqlBuilder {
  return (c) => {
    const base = toBase(c, units, `CAST(${c.a[0]} AS DOUBLE)`, angle);
    const result = base === null ? null : fromBase(c, units, base, angle);
    return result ?? c.d.nullOf('real');
  };
}

function convertFunction(quantity: string, units: Units, angle = false): ScalarFunction {
  const build = converter(units, angle);
  return {
    name: `convert_${quantity}`,
    family: 'math',
    summary: `A value of ${quantity} from one unit to another (the unit names of Kusto's convert_${quantity} page); null for a unit not listed there.`,
    signatures: [
      {
        params: [
          { name: 'value', type: 'number' },
          { name: 'from', type: 'string' },
          { name: 'to', type: 'string' },
        ],
        result: 'real',
      },
    ],
    duckdb: build,
    timestream: build,
  };
}

export const CONVERT_V6_FUNCTIONS: readonly ScalarFunction[] = [
  convertFunction('angle', linear(LINEAR_UNITS.ANGLE), true),
  convertFunction('energy', linear(LINEAR_UNITS.ENERGY)),
  convertFunction('force', linear(LINEAR_UNITS.FORCE)),
  convertFunction('length', linear(LINEAR_UNITS.LENGTH)),
  convertFunction('mass', linear(LINEAR_UNITS.MASS)),
  convertFunction('speed', linear(LINEAR_UNITS.SPEED)),
  convertFunction('temperature', TEMPERATURE),
  convertFunction('volume', linear(LINEAR_UNITS.VOLUME)),
];
