import './styles.css';
import { createAppRouter, startApp } from './features/app/start-app';
import { routeTree } from './route-tree.gen';

const router = createAppRouter(routeTree);

declare module '@tanstack/react-router' {
  interface Register {
    router: typeof router;
  }
}

startApp(router);
