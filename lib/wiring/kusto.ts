// The Kusto routes' configuration: the cloud information they publish and the version they report.
import packageJson from '../../package.json';
import { config } from '../core/config';
import { cloudInfo, type CloudInfo } from '../kusto/metadata';
import { oauthIssuer } from './auth';
import { onceSync } from './once';

export const kustoCloudInfo: () => CloudInfo = onceSync(() => {
  const cfg = config();
  return cloudInfo(oauthIssuer(cfg), cfg.OAUTH_RESOURCE);
});

/** `.show version`: the service's package version. */
export const SERVICE_VERSION: string = packageJson.version;
