// serverless.yml plugin entry: `offline start` serves function bundles built beforehand instead of
// having serverless-esbuild bundle every function again (an offline start measured 42.9 s of CPU with that, 13.9 s without).
// INSIGHTS_PREBUILT_DIR names the folder: `npm start` passes its bundle cache
// (infra/local/bundle-cache.mjs), a test run the bundles it built once (test/support/prebuilt-bundles.ts);
// both are built by infra/local/bundles.mjs with custom.esbuild's options. serverless-esbuild then
// bundles nothing and watches nothing (a handler edited while the stack runs is picked up at the next
// start). Without the variable, and for any other command (package, deploy), it does nothing.
// It must come before serverless-esbuild in `plugins`, whose `initialize` hook reads its options.
import { existsSync } from 'node:fs';
import path from 'node:path';
import { markCommonJsBundleFolders } from './bundle-package-json.mjs';

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
        // Ends serverless-offline's per-invocation walk up to the project's package.json.
        markCommonJsBundleFolders(path.join(dir, 'functions'));
      },
    };
  }
}
