// Types of the serverless.yml plugin entry beside it (plain JS: osls loads it without tsx).
export default class PrebuiltBundlesPlugin {
  constructor(serverless: unknown);
  readonly hooks: { initialize: () => void };
}
