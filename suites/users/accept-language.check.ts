// The Accept-Language header parameter of user details v2 (spec 4.2). Which
// languages exist is not shown, so the profile names them, and a request for
// a declared language (alone or as an RFC 9110 weighted list) that is not
// served is a profile-declared FAIL. Content-Language is recorded only: the
// spec shows no response header for the language.
import { defineCheck } from '../../runner/index.ts';
import { existingUserId, getUser } from './support.ts';
import { languageServed } from './access-judgments.ts';

/** Single tags, then one RFC 9110 weighted list built from the configured languages. */
function headerValues(languages: string[]): string[] {
  const [first, second] = languages;
  const weighted = second ? `${second}, ${first};q=0.5` : `${first};q=0.9`;
  return [...languages, weighted];
}

defineCheck(
  {
    id: 'users.accept-language-accepted',
    title: 'User details accept the Accept-Language header for each supported language',
    requirements: ['USERS-ACCEPT-LANGUAGE'],
  },
  async ({ check, http, profile, tokens }) => {
    const userId = existingUserId(profile, check);
    const languages = check.need(profile, 'users.languages', 'no supported Accept-Language values to send');
    for (const value of headerValues(languages)) {
      const res = await getUser({ http, tokens, userId, headers: { 'accept-language': value }, label: `Accept-Language: ${value}` });
      check.judge(languageServed, { value, status: res.status, ...(res.exchangeId !== undefined ? { exchange: res.exchangeId } : {}), languages: check.declaredValue('users.languages') });
      const contentLanguage = res.headers['content-language'];
      check.note(`Accept-Language: ${value} → 200${contentLanguage ? `, Content-Language: ${contentLanguage}` : ', no Content-Language'}`);
    }
  },
);
