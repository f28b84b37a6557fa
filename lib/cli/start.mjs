// Shared start of the bins (lib/cli/gdm.mjs, lib/cli/insights-admin.mjs): `--version` at once,
// then the bundled CLI from lib/cli/dist/ when it is fresh (none of its sources changed since it
// was built by `npm ci` or `npm run build:cli`), else the TypeScript sources through tsx.
import { readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const here = path.dirname(fileURLToPath(import.meta.url));
const root = path.resolve(here, '../..');

/** True when dist/<name>.mjs exists and every project source it was built from is unchanged. */
export function bundleIsFresh(name, dir = path.join(here, 'dist'), base = root) {
  try {
    const { inputs } = JSON.parse(readFileSync(path.join(dir, `${name}.inputs.json`), 'utf8'));
    statSync(path.join(dir, `${name}.mjs`));
    return Object.entries(inputs).every(([file, mtimeMs]) => statSync(path.join(base, file)).mtimeMs <= mtimeMs);
  } catch {
    return false;
  }
}

export async function startCli(name, sourceEntry) {
  const argv = process.argv.slice(2);
  if (argv.length === 1 && (argv[0] === '--version' || argv[0] === '-v')) {
    process.stdout.write(`${JSON.parse(readFileSync(path.join(root, 'package.json'), 'utf8')).version}\n`);
    return;
  }
  // INSIGHTS_CLI_FROM_SOURCES=1 runs the TypeScript sources even with a fresh bundle (benchmarks, debugging).
  if (process.env.INSIGHTS_CLI_FROM_SOURCES !== '1' && bundleIsFresh(name)) {
    await import(pathToFileURL(path.join(here, 'dist', `${name}.mjs`)).href);
    return;
  }
  const { register } = await import('tsx/esm/api');
  register();
  await import(pathToFileURL(path.join(here, sourceEntry)).href);
}
