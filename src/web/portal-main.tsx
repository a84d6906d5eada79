import './portal.css';
import { isPortalPath } from '@domain/route-guard';
import { createAppRouter, startApp } from './features/app/start-app';
import { routeTree } from './portal-route-tree.gen';

// The portal's page (portal.html, sent for /clientportal paths) knows only the portal's routes, so
// its entry is not every screen's config. Its types are checked against the staff app's tree
// (main.tsx registers it), which holds every portal route under the same ids.
const router = createAppRouter(routeTree as unknown as Parameters<typeof createAppRouter>[0]);

// A link or call to a staff page (its login, "/") is a page of the other build: a full load, which
// the server answers with index.html.
const navigate = router.navigate;
router.navigate = (options) => {
  const href =
    options.href ?? router.buildLocation(options as Parameters<typeof router.buildLocation>[0]).href;
  if (options.reloadDocument || isPortalPath(new URL(href, window.location.origin).pathname))
    return navigate(options);
  return navigate({ ...options, reloadDocument: true });
};

startApp(router);
