// GET /v1/rest/auth/metadata, Kusto's cloud information, read by every SDK before its first
// request and answered without authentication. With a token given to the SDK (withAccessToken,
// withTokenProvider) the SDK only uses it to pick its list of trusted hosts by LoginEndpoint; the
// values say who really issues our tokens: the OAuth issuer and the API's resource identifier.
export interface CloudInfo {
  readonly AzureAD: {
    readonly LoginEndpoint: string;
    readonly LoginMfaRequired: boolean;
    readonly KustoClientAppId: string;
    readonly KustoClientRedirectUri: string;
    readonly KustoServiceResourceId: string;
    readonly FirstPartyAuthorityUrl: string;
  };
  readonly dSTS: null;
}

export function cloudInfo(issuer: string, resource: string): CloudInfo {
  return {
    AzureAD: {
      LoginEndpoint: issuer,
      LoginMfaRequired: false,
      // No interactive login: clients bring a client-credentials token from the token endpoint.
      KustoClientAppId: '',
      KustoClientRedirectUri: '',
      KustoServiceResourceId: resource,
      FirstPartyAuthorityUrl: issuer,
    },
    dSTS: null,
  };
}
