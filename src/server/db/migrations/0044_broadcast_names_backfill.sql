-- Broadcasts made before they had names: their template's name, else the subject without its
-- placeholders ("{{client_name}}: documents for 2026" reads "documents for 2026"), else "Broadcast".
UPDATE "broadcasts" AS b
SET "name" = left(
  coalesce(
    (SELECT nullif(btrim(t."name"), '') FROM "broadcast_templates" AS t
      WHERE t."org_id" = b."org_id" AND t."id" = b."template_id"),
    nullif(btrim(regexp_replace(b."subject", '\{\{[^}]*\}\}[[:space:]:,–-]*', '', 'g')), ''),
    'Broadcast'
  ),
  120
)
WHERE b."name" = '';
