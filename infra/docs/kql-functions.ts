// npm run docs:kql: writes docs/kql-functions.md from the function catalog.
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { renderFunctionDocs } from '../../lib/query/catalog/docs';

const target = path.resolve(import.meta.dirname, '../../docs/kql-functions.md');
writeFileSync(target, renderFunctionDocs());
console.log(`wrote ${path.relative(process.cwd(), target)}`);
