-- Client requests' rights (issue 36) reach the seeded roles that hold them by definition
-- (src/domain/permissions.ts SEEDED_ROLES), as 0046 did for billing: both for Owner, Admin and
-- Manager, requests.view for Staff. A right a role already holds is not added twice.
UPDATE "roles" AS r
SET "permissions" = r."permissions" || array(
      SELECT k FROM unnest(g.keys) AS k WHERE NOT (k = ANY (r."permissions"))
    ),
    "updated_at" = now()
FROM (VALUES
  ('Owner', ARRAY['requests.view', 'requests.manage']::text[]),
  ('Admin', ARRAY['requests.view', 'requests.manage']::text[]),
  ('Manager', ARRAY['requests.view', 'requests.manage']::text[]),
  ('Staff', ARRAY['requests.view']::text[])
) AS g(name, keys)
WHERE r."name" = g.name AND NOT (r."permissions" @> g.keys);
