import {
  createVideoClient,
  RAPID_RETRY,
  type VideoClientHandle,
  type VideoClientOptions,
} from '../src/client/index.js';
import { DEMO } from '../src/sandbox/demo-data.js';

/** A client of the test sandbox at `baseUrl`: its demo keys, a 2 s timeout, quick retries. */
export function sandboxClient(baseUrl: string, options: Partial<VideoClientOptions> = {}): VideoClientHandle {
  return createVideoClient({
    baseUrl,
    apiKey: DEMO.apiKey,
    secretKey: DEMO.secretKey,
    timeoutMs: 2_000,
    retryConversionMethod: 'auto',
    retryPolicy: RAPID_RETRY,
    ...options,
  });
}
