// `npm run fuzz`: the compiler's fuzz property (fuzz-arbitraries.ts) for longer than `npm test`.
//   FUZZ_RUNS  number of inputs (default 20000)
//   FUZZ_SEED  base seed (default: a new one, printed first so the run can be repeated)
// Runs in batches of 500 with seeds FUZZ_SEED, FUZZ_SEED + 1 ..., printing progress. On a failure it
// prints the batch's seed, fast-check's path and the shrunk counterexample, and exits with 1;
// `fc.assert(fuzzProperty(), { seed, path })` replays it.
import fc from 'fast-check';
import { corpus, fuzzProperty } from './fuzz-arbitraries';

const BATCH = 500;
const runs = Number(process.env.FUZZ_RUNS ?? 20_000);
const seed = process.env.FUZZ_SEED === undefined ? Date.now() % 2 ** 31 : Number(process.env.FUZZ_SEED);
if (!Number.isSafeInteger(runs) || runs < 1 || !Number.isSafeInteger(seed)) {
  console.error('FUZZ_RUNS must be a positive integer and FUZZ_SEED an integer');
  process.exit(2);
}

const property = fuzzProperty(corpus());
const started = performance.now();
console.log(`fuzzing the KQL compiler: ${runs} inputs, FUZZ_SEED=${seed}`);
for (let done = 0, batch = 0; done < runs; batch++) {
  const numRuns = Math.min(BATCH, runs - done);
  const batchSeed = seed + batch;
  const details = fc.check(property, { seed: batchSeed, numRuns });
  if (details.failed) {
    const counterexample = details.counterexample?.[0];
    console.error(`\nFAILED after ${done + details.numRuns} inputs`);
    console.error(`  seed ${batchSeed} (FUZZ_SEED=${seed}, batch ${batch}), path "${details.counterexamplePath}"`);
    console.error(
      `  replay: fc.assert(fuzzProperty(), { seed: ${batchSeed}, path: ${JSON.stringify(details.counterexamplePath)} })`,
    );
    console.error(
      `  shrunk counterexample (${typeof counterexample === 'string' ? counterexample.length : '?'} characters): ${JSON.stringify(counterexample)}`,
    );
    console.error(
      `  error: ${details.errorInstance instanceof Error ? (details.errorInstance.stack ?? details.errorInstance.message) : String(details.errorInstance)}`,
    );
    process.exit(1);
  }
  done += numRuns;
  const seconds = (performance.now() - started) / 1000;
  console.log(`  ${done}/${runs} inputs, ${seconds.toFixed(1)} s, ${Math.round(done / seconds)} inputs/s`);
}
console.log(`no failure in ${runs} inputs (FUZZ_SEED=${seed})`);
