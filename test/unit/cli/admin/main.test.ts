// Dispatch of `insights-admin`: names are looked up as the CLI's own commands and kinds only.
import { describe, expect, it } from 'vitest';
import { runAdmin } from '../../../../lib/cli/admin/main';

async function admin(...args: string[]): Promise<{ code: number; out: string; err: string }> {
  let out = '';
  let err = '';
  const code = await runAdmin(args, {
    stdout: { write: (t: string) => (out += t) },
    stderr: { write: (t: string) => (err += t) },
  });
  return { code, out, err };
}

describe('runAdmin', () => {
  it.each([['constructor'], ['toString', 'x'], ['customers', 'hasOwnProperty']])(
    'refuses %j as an unknown command (exit 2)',
    async (...args) => {
      // Act
      const run = await admin(...args);
      // Assess
      expect(run.code).toBe(2);
      expect(run.err).toContain('unknown command');
    },
  );

  it('refuses an inherited name as an import kind, before touching any table', async () => {
    // Act
    const run = await admin('import', 'toString', 'parts.csv', '--plant', 'p1');
    // Assess
    expect(run.code).toBe(2);
    expect(run.err).toContain('unknown kind "toString"; one of parts, assets, jobs-done, jobs-planned, tasks');
  });

  it('lists the import kinds in the command help', async () => {
    // Act
    const run = await admin('import', '--help');
    // Assess
    expect(run.code).toBe(0);
    expect(run.out).toContain('insights-admin import <parts|assets|jobs-done|jobs-planned|tasks>');
  });
});
