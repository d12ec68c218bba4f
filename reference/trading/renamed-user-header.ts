// The name the user-id header takes under the user-id-header-renamed variant.
// Apart from svc-user-id.ts, which reads the header for a route and so needs
// the reference's context: the variants' profile adjustment
// (variants/profile-adjustments.ts) names the header too, and the variant
// catalogue sits below the context, so it must not import svc-user-id.ts.
import { SPEC_USER_ID_HEADER, type ReferenceOptions } from '../options.ts';

/** The name the user-id-header-renamed variant reads when options.userIdHeader is left at the spec's. */
export const RENAMED_USER_HEADER = 'x-partner-user-id';

/** The header user-id-header-renamed reads: options.userIdHeader when it names another than the spec's, else x-partner-user-id. */
export function renamedUserHeader(options?: Pick<ReferenceOptions, 'userIdHeader'>): string {
  const configured = options?.userIdHeader?.toLowerCase();
  return configured && configured !== SPEC_USER_ID_HEADER ? configured : RENAMED_USER_HEADER;
}
