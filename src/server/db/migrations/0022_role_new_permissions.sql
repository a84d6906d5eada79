-- Rights added after a firm was created reach its seeded roles, as their seeded definitions now
-- have them (src/domain/permissions.ts SEEDED_ROLES): timesheets.approve for Owner, Admin and
-- Manager; timesheets.rates for Owner and Admin; leaves.create for Manager (a manager takes leave too). Roles are matched by their seeded names; a right
-- a role already holds is not added twice, and nothing is taken away. (The Owner role holds every
-- right at runtime anyway; this keeps what is stored honest.)
UPDATE "roles" AS r
SET "permissions" = r."permissions" || array(
      SELECT k FROM unnest(g.keys) AS k WHERE NOT (k = ANY (r."permissions"))
    ),
    "updated_at" = now()
FROM (VALUES
  ('Owner', ARRAY['timesheets.approve', 'timesheets.rates']::text[]),
  ('Admin', ARRAY['timesheets.approve', 'timesheets.rates']::text[]),
  ('Manager', ARRAY['timesheets.approve', 'leaves.create']::text[])
) AS g(name, keys)
WHERE r."name" = g.name AND NOT (r."permissions" @> g.keys);
