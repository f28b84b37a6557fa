// serverless.yml plugin entry: declares the functions' `access` property and, when packaging,
// gives every function its own least-privilege role (infra/iam/plugin.ts, loaded through tsx).
import { tsImport } from 'tsx/esm/api';

export default class FunctionRolesPlugin {
  constructor(serverless) {
    serverless.configSchemaHandler.defineFunctionProperties('aws', {
      properties: { access: { type: 'array', items: { type: 'string' } } },
    });
    this.hooks = {
      'before:package:setupProviderConfiguration': async () => {
        const { assignRoles } = await tsImport('./iam/plugin.ts', import.meta.url);
        assignRoles(serverless);
      },
    };
  }
}
