// The arguments of `evaluate geo_polygon_lookup(...)` and `evaluate geo_line_lookup(...)` (their plugin
// docs): LookupTable, SourceLongitude, SourceLatitude and the lookup key positionally, then radius,
// return_unmatched and join_hint positionally or as `name = value` (the pages' examples write
// `radius = 7000, return_unmatched = true`). The values are checked by analyze-geo-lookup.ts.
// Throws QUERY_SEMANTIC at an unknown or repeated name, or a positional argument after a named one.
import type { EvaluateSpec, Expr, NamedArgument } from './ast';
import { clip, type ErrorFactory } from './errors';
import type { Span } from './tokens';

export type GeoLookupPlugin = 'geo_polygon_lookup' | 'geo_line_lookup';

/** The options after the lookup key, in their positional order. */
export const GEO_LOOKUP_OPTIONS = ['radius', 'return_unmatched', 'join_hint'] as const;

export const isGeoLookup = (name: string): name is GeoLookupPlugin =>
  name === 'geo_polygon_lookup' || name === 'geo_line_lookup';

interface Argument {
  readonly name?: { readonly name: string; readonly span: Span };
  readonly expr: Expr;
}

export function geoLookupSpec(
  p: { readonly errors: ErrorFactory },
  plugin: GeoLookupPlugin,
  pluginSpan: Span,
  written: readonly Argument[],
  argsSpan: Span,
): EvaluateSpec {
  const args: Expr[] = [];
  const named: NamedArgument[] = [];
  for (const a of written) {
    if (!a.name) {
      if (named.length > 0)
        throw p.errors.semantic(`${plugin}() takes no positional argument after a named one`, a.expr.span);
      args.push(a.expr);
      continue;
    }
    const { name, span } = a.name;
    if (!(GEO_LOOKUP_OPTIONS as readonly string[]).includes(name))
      throw p.errors.semantic(
        `${plugin}() has no argument '${clip(name)}' (only ${GEO_LOOKUP_OPTIONS.join(', ')} may be named)`,
        span,
      );
    if (named.some((n) => n.name === name)) throw p.errors.semantic(`${plugin}()'s ${name} is given twice`, span);
    named.push({ name, nameSpan: span, expr: a.expr });
  }
  return { plugin, pluginSpan, args, argsSpan, named };
}
