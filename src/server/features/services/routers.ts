import { clientGroupsRouter } from '../client-groups/router';
import { engagementsRouter } from '../engagements/router';
import { servicesRouter } from './router';

/** The catalogue feature's routers, merged into the app router in one line. */
export const catalogueRouters = {
  services: servicesRouter,
  clientGroups: clientGroupsRouter,
  engagements: engagementsRouter,
};
