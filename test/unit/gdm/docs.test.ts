import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { ERROR_CODES, WARNING_CODES } from '../../../lib/gdm';
import { REPO_ROOT } from './corpus';

describe('docs/gdm.md', () => {
  const doc = readFileSync(path.join(REPO_ROOT, 'docs/gdm.md'), 'utf8');

  it.each([...Object.keys(ERROR_CODES), ...Object.keys(WARNING_CODES)])('documents the code %s', (code) => {
    expect(doc).toContain(`\`${code}\``);
  });
});
