// The projects feature's public surface: other features, the root router and the composition root
// import from here, never from the files beside it.

export { afterTimeLogged, levelForBudget, taskBudget } from './budgets';
export { searchClients } from './options';
export { defaultThrough, generateForEngagement, generateRecurringProjects } from './recurring';
export { projectsRouter } from './router';
