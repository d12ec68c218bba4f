// The console's browser app (bundled by app/serve/console/assets.ts into
// /assets/app.<hash>.js): the routes of the app shell and the pages they draw.
// When the app's code started running, for the benchmark's breakdown (bench/console.bench.ts).
document.documentElement.dataset.startedAtMs = performance.now().toFixed(0);

import { implementationPage } from './pages/implementation.ts';
import { implementationsPage } from './pages/implementations.ts';
import { runPage } from './pages/run.ts';
import { route, startRouter } from './router.ts';

route(/^\/$/, implementationsPage);
route(/^\/console\/implementations\/new$/, (main) => implementationPage(main, []));
route(/^\/console\/implementations\/([a-z0-9-]{1,64})$/, implementationPage);
route(/^\/console\/runs\/([A-Za-z0-9_-]{1,64})$/, runPage);

startRouter();
