// The statutory calendar's public surface (issue 39).
export { statutoryRouter } from './router';
export { saveRegistrations } from './service';
