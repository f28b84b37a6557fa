// Types of the plain-JS module beside it (start.mjs runs it with node alone, without tsx).
import type { Metafile } from 'esbuild';
import type { Service } from './bundles.mjs';

export interface BundleKey {
  readonly key: string;
  readonly files: number;
  readonly ms: number;
}
export interface CachedBundles {
  readonly dir: string;
  readonly key: string;
  readonly files: number;
  readonly reused: boolean;
  readonly checkMs: number;
  readonly buildMs: number;
}
export function bundleInputs(base: string, extraFiles: readonly string[]): Promise<string[]>;
export function bundleKey(base: string, settings: unknown, extraFiles: readonly string[]): Promise<BundleKey>;
export function projectBundleInputs(service?: Service): Promise<string[]>;
export function projectBundleKey(service?: Service): Promise<BundleKey>;
export function cachedBundles(
  cacheDir: string,
  options?: { service?: Service; build?: (dir: string, service: Service) => Promise<Metafile | undefined> },
): Promise<CachedBundles>;
