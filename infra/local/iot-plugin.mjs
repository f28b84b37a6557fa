// serverless.yml plugin entry: a thin shim that loads the TypeScript plugin through tsx when the
// offline stack starts (osls requires plugins synchronously, so no top-level await here).
import { register } from 'tsx/esm/api';

register();

export default class LocalIotPluginShim {
  constructor(serverless, options) {
    let plugin;
    this.hooks = {
      'offline:start:init': async () => {
        const { default: LocalIotPlugin } = await import('./iot/plugin.ts');
        plugin = new LocalIotPlugin(serverless, options);
        await plugin.hooks['offline:start:init']();
      },
      'before:offline:start:end': async () => plugin?.hooks['before:offline:start:end'](),
    };
  }
}
