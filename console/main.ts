// The console's browser app (bundled by app/serve/console/assets.ts into
// /assets/app.<hash>.js): the routes of the app shell and the pages they draw.
// It also runs on the login's answer page, only to keep the session's secret
// (session.ts); and a shell opened without the secret (a browser that only
// has the cookie) goes to the login page rather than drawing anything.
// When the app's code started running, for the benchmark's breakdown (bench/console.bench.ts).
document.documentElement.dataset.startedAtMs = performance.now().toFixed(0);

import type { SessionView } from '../app/serve/console/api-types.ts';
import { getJson } from './api.ts';
import { implementationPage } from './pages/implementation.ts';
import { implementationsPage } from './pages/implementations.ts';
import { runPage } from './pages/run.ts';
import { route, startRouter } from './router.ts';
import { completeSignIn, sessionSecret, signInAgain, signOut } from './session.ts';
import { auditPage } from './pages/audit.ts';
import { rejudgePage } from './pages/rejudge.ts';

function startApp(): void {
  route(/^\/$/, implementationsPage);
  route(/^\/console\/implementations\/new$/, (main) => implementationPage(main, []));
  route(/^\/console\/implementations\/([a-z0-9-]{1,64})$/, implementationPage);
  route(/^\/console\/runs\/([A-Za-z0-9_-]{1,64})$/, runPage);
  route(/^\/console\/audit$/, auditPage);
  route(/^\/console\/rejudge$/, rejudgePage);
  document.getElementById('sign-out')?.addEventListener('click', () => void signOut());
  void getJson<SessionView>('/console/api/session')
    .then((session) => {
      const who = document.getElementById('signed-in-as');
      if (who) who.textContent = session.role === 'admin' ? session.signedInAs : `${session.signedInAs} (${session.role})`;
      document.body.dataset.role = session.role;
    })
    .catch(() => {});
  startRouter();
}

if (!completeSignIn()) {
  if (sessionSecret()) startApp();
  else signInAgain();
}
