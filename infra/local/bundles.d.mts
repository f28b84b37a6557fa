// Types of the plain-JS module beside it (start.mjs runs it with node alone, without tsx).
import type { BuildOptions, Metafile } from 'esbuild';

export interface Service {
  custom: { esbuild: Record<string, unknown> & { exclude?: string[]; outputFileExtension?: string } };
  functions: string[];
}
export const root: string;
export function readService(): Service;
export function functionFiles(service: Service): string[];
export function functionEntries(service: Service): string[];
export function esbuildOptions(service: Service): BuildOptions;
export function bundleFunctions(outdir: string, service?: Service): Promise<Metafile>;
