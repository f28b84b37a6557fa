// serverless.yml plugin entry, for test runs only. A test run starts a dozen offline stacks, and each
// would bundle every function again with serverless-esbuild (about 15 s of CPU, the largest part of
// a stack start on a loaded machine). When INSIGHTS_PREBUILT_DIR names a folder of bundles built
// once for the run (test/support/prebuilt-bundles.ts, same esbuild options as custom.esbuild),
// `offline start` serves those: serverless-esbuild bundles nothing and watches nothing (there is
// no source to rebuild from). Without the variable (npm start, package, deploy) it does nothing.
// It must come before serverless-esbuild in `plugins`, whose `initialize` hook reads its options.
import { existsSync } from 'node:fs';
import path from 'node:path';

export default class PrebuiltBundlesPlugin {
  constructor(serverless) {
    this.hooks = {
      initialize: () => {
        const dir = process.env.INSIGHTS_PREBUILT_DIR;
        const command = (serverless.processedInput?.commands ?? []).join(' ');
        if (!dir || command !== 'offline start') return;
        if (!existsSync(path.join(dir, 'functions')))
          throw new Error(`INSIGHTS_PREBUILT_DIR=${dir} holds no functions/ folder of bundles`);
        const { service } = serverless;
        // serverless-esbuild leaves a function marked skipEsbuild out of its build.
        for (const fn of Object.values(service.functions ?? {})) fn.skipEsbuild = true;
        service.custom ??= {};
        service.custom.esbuild = { ...service.custom.esbuild, watch: { pattern: [] } };
        // serverless-esbuild sets serverless-offline's `location` only when none is set.
        service.custom['serverless-offline'] = { ...service.custom['serverless-offline'], location: dir };
      },
    };
  }
}
