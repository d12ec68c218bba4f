// Spec 4.2 rule 7: for partners that run the service under their own
// licence, user details v2 is restricted. What the restriction looks like is
// not shown: without a declaration a 2xx is a finding for review (WARN) and
// the refusal code is recorded; with users.ownLicence.restrictedStatus the
// profile declares the answer, and any other is a profile-declared FAIL.
import { defineCheck } from '../../runner/index.ts';
import { issuePair } from '../../src/auth/tokens.ts';
import { existingUserId, userPath } from './support.ts';
import { ownLicenceRestricted } from './access-judgments.ts';
import { sendWithIssuedToken } from '../auth/issued-token.ts';

defineCheck(
  {
    id: 'users.own-licence-restricted',
    title: 'User details are restricted for an own-licence partner',
    requirements: ['USERS-OWN-LICENCE-RESTRICTED'],
  },
  async ({ check, http, profile }) => {
    const userId = existingUserId(profile, check);
    const ownLicence = profile.users?.ownLicence;
    if (!ownLicence) return check.skip('no own-licence partner credentials', 'users.ownLicence');
    http.redactor.addSecret(ownLicence.clientSecret, 'client_secret');
    const credentials = { clientId: ownLicence.clientId, clientSecret: ownLicence.clientSecret };
    const obtain = () => issuePair(http, { ...profile, credentials }, 'token pair of the own-licence partner');
    const send = (accessToken: string) => http.get(userPath(userId), { bearer: accessToken, label: 'user details as the own-licence partner' });
    // A 401 its token's lifetime explains is retried: it says nothing of the restriction.
    const res = await sendWithIssuedToken(check, profile, obtain, send, 'user details as the own-licence partner');
    const restrictedStatus = check.declaredValue('users.ownLicence.restrictedStatus') as number | undefined;
    check.judge(ownLicenceRestricted, { status: res.status, clientId: ownLicence.clientId, ...(restrictedStatus !== undefined ? { restrictedStatus } : {}) });
  },
);
