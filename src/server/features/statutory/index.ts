// The statutory calendar's public surface (issue 39).

export { applicableCodesSql } from './applicability-sql';
export { statutoryRouter } from './router';
export { firmRelease, saveRegistrations } from './service';
