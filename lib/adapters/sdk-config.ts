// How every AWS SDK client of the service retries, set in one place. The SDK's standard mode
// already retries throttling, 5xx answers, clock skew and dropped connections with exponential
// backoff and full jitter, and its retry quota stops retry storms when a service is down. Code
// above a client never retries the same call again (that multiplied to 15 attempts before);
// only items a call reports as not done are sent again (partial-batch.ts).

/** Attempts per call, the first included; the SDK's default, written down so that it is one decision. */
export const SDK_MAX_ATTEMPTS = 3;

export interface SdkRetrySettings {
  readonly maxAttempts: number;
  readonly retryMode: 'standard';
}

export const SDK_RETRY: SdkRetrySettings = { maxAttempts: SDK_MAX_ATTEMPTS, retryMode: 'standard' };

/** The configuration of a new client: the caller's settings (region, endpoint...) plus the retry settings. */
export function sdkClientConfig<T extends object>(settings: T): T & SdkRetrySettings {
  return { ...settings, ...SDK_RETRY };
}
