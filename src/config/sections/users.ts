// Profile section "users": typed view of schemas/profile/users.schema.json.

/** Query parameters of a journey context; an array repeats the parameter. */
export type JourneyQuery = Record<string, string | string[]>;

export interface TermsCase {
  name?: string;
  query: JourneyQuery;
  expectedTerms: number[];
}

export interface OwnLicenceClient {
  clientId: string;
  clientSecret: string;
  restrictedStatus?: number;
}

export interface UsersProfile {
  existingUserId?: string;
  journeys?: string[];
  assetGroup?: string;
  sourceAssetGroup?: string;
  targetAssetGroup?: string;
  languages?: string[];
  defaultTerms?: number[];
  termsCases?: TermsCase[];
  ownLicence?: OwnLicenceClient;
}
