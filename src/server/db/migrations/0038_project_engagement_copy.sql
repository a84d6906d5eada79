-- Projects copy their engagement's service and dates (0037's columns), so the services summary
-- tells which engagement periods have a project from projects_service_period_idx alone: joining
-- each of a quarter's 65,000 projects to its engagement was most of that report. Kept like the
-- assignee rows of 0030/0035: a project takes the copy when it is made or moved to another
-- engagement (deleting the engagement sets the link null, and the copy with it), and an engagement
-- whose service or dates change passes them on. FOR SHARE makes a project made while its
-- engagement is being edited wait for that edit, so neither side misses the other's change.
CREATE OR REPLACE FUNCTION "projects_copy_engagement"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  SELECT cs."service_id", cs."start_date", cs."end_date"
    INTO NEW."engagement_service_id", NEW."engagement_start", NEW."engagement_end"
    FROM "client_services" cs WHERE cs."org_id" = NEW."org_id" AND cs."id" = NEW."client_service_id"
    FOR SHARE;
  RETURN NEW;
END $$;--> statement-breakpoint
CREATE TRIGGER "projects_copy_engagement" BEFORE INSERT OR UPDATE OF "client_service_id" ON "projects"
  FOR EACH ROW EXECUTE FUNCTION "projects_copy_engagement"();--> statement-breakpoint
CREATE OR REPLACE FUNCTION "client_services_copy_to_projects"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  UPDATE "projects" SET "engagement_service_id" = NEW."service_id", "engagement_start" = NEW."start_date",
    "engagement_end" = NEW."end_date"
    WHERE "org_id" = NEW."org_id" AND "client_service_id" = NEW."id";
  RETURN NULL;
END $$;--> statement-breakpoint
CREATE TRIGGER "client_services_copy_to_projects" AFTER UPDATE OF "service_id", "start_date", "end_date" ON "client_services"
  FOR EACH ROW WHEN (OLD."service_id" IS DISTINCT FROM NEW."service_id" OR OLD."start_date" IS DISTINCT FROM NEW."start_date"
    OR OLD."end_date" IS DISTINCT FROM NEW."end_date")
  EXECUTE FUNCTION "client_services_copy_to_projects"();--> statement-breakpoint
UPDATE "projects" p SET "engagement_service_id" = cs."service_id", "engagement_start" = cs."start_date",
  "engagement_end" = cs."end_date"
  FROM "client_services" cs WHERE cs."org_id" = p."org_id" AND cs."id" = p."client_service_id";
--> statement-breakpoint
-- The backfill rewrote every generated project, and with it half of the index 0037 built: build it
-- again rather than leave it twice its size.
REINDEX INDEX "projects_service_period_idx";
