ALTER TABLE "task_assignees" ADD COLUMN "status" text DEFAULT 'SCHEDULED' NOT NULL;--> statement-breakpoint
UPDATE "task_assignees" a SET "status" = t."status", "due_date" = t."due_date"
  FROM "tasks" t WHERE t."org_id" = a."org_id" AND t."id" = a."task_id";--> statement-breakpoint
-- The assignee rows copy their task's status and due date so "my open / overdue tasks" is an
-- index-only count. The database keeps the copy, whatever statement inserts an assignee or changes a
-- task (the app, the recurring run, a bulk action): one home for the rule.
CREATE FUNCTION "task_assignees_copy_task"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  SELECT t."status", t."due_date" INTO NEW."status", NEW."due_date"
    FROM "tasks" t WHERE t."org_id" = NEW."org_id" AND t."id" = NEW."task_id";
  RETURN NEW;
END $$;--> statement-breakpoint
CREATE TRIGGER "task_assignees_copy_task" BEFORE INSERT OR UPDATE ON "task_assignees"
  FOR EACH ROW EXECUTE FUNCTION "task_assignees_copy_task"();--> statement-breakpoint
CREATE FUNCTION "tasks_copy_to_assignees"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  UPDATE "task_assignees" SET "status" = NEW."status", "due_date" = NEW."due_date"
    WHERE "org_id" = NEW."org_id" AND "task_id" = NEW."id";
  RETURN NULL;
END $$;--> statement-breakpoint
CREATE TRIGGER "tasks_copy_to_assignees" AFTER UPDATE OF "status", "due_date" ON "tasks"
  FOR EACH ROW WHEN (OLD."status" IS DISTINCT FROM NEW."status" OR OLD."due_date" IS DISTINCT FROM NEW."due_date")
  EXECUTE FUNCTION "tasks_copy_to_assignees"();--> statement-breakpoint
-- A server caches a member's dashboard until the firm changes something it shows: every statement
-- that writes to a table the dashboard reads notifies 'dashboard_changed' with the firm's id. NOTIFY
-- is transactional (sent at commit, never for a rollback) and takes no row locks; every instance
-- LISTENs (src/server/features/dashboard/cache.ts).
CREATE FUNCTION "dashboard_changed_new"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM pg_notify('dashboard_changed', x."org_id"::text) FROM (SELECT DISTINCT n."org_id" FROM "new_rows" n) x;
  RETURN NULL;
END $$;--> statement-breakpoint
CREATE FUNCTION "dashboard_changed_old"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM pg_notify('dashboard_changed', x."org_id"::text) FROM (SELECT DISTINCT d."org_id" FROM "old_rows" d) x;
  RETURN NULL;
END $$;--> statement-breakpoint
CREATE FUNCTION "dashboard_changed_row"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM pg_notify('dashboard_changed', NEW."org_id"::text);
  RETURN NULL;
END $$;--> statement-breakpoint
CREATE TRIGGER "tasks_dashboard_ins" AFTER INSERT ON "tasks" REFERENCING NEW TABLE AS "new_rows" FOR EACH STATEMENT EXECUTE FUNCTION "dashboard_changed_new"();--> statement-breakpoint
CREATE TRIGGER "tasks_dashboard_upd" AFTER UPDATE ON "tasks" REFERENCING NEW TABLE AS "new_rows" FOR EACH STATEMENT EXECUTE FUNCTION "dashboard_changed_new"();--> statement-breakpoint
CREATE TRIGGER "tasks_dashboard_del" AFTER DELETE ON "tasks" REFERENCING OLD TABLE AS "old_rows" FOR EACH STATEMENT EXECUTE FUNCTION "dashboard_changed_old"();--> statement-breakpoint
CREATE TRIGGER "task_assignees_dashboard_ins" AFTER INSERT ON "task_assignees" REFERENCING NEW TABLE AS "new_rows" FOR EACH STATEMENT EXECUTE FUNCTION "dashboard_changed_new"();--> statement-breakpoint
CREATE TRIGGER "task_assignees_dashboard_upd" AFTER UPDATE ON "task_assignees" REFERENCING NEW TABLE AS "new_rows" FOR EACH STATEMENT EXECUTE FUNCTION "dashboard_changed_new"();--> statement-breakpoint
CREATE TRIGGER "task_assignees_dashboard_del" AFTER DELETE ON "task_assignees" REFERENCING OLD TABLE AS "old_rows" FOR EACH STATEMENT EXECUTE FUNCTION "dashboard_changed_old"();--> statement-breakpoint
CREATE TRIGGER "projects_dashboard_ins" AFTER INSERT ON "projects" REFERENCING NEW TABLE AS "new_rows" FOR EACH STATEMENT EXECUTE FUNCTION "dashboard_changed_new"();--> statement-breakpoint
CREATE TRIGGER "projects_dashboard_upd" AFTER UPDATE ON "projects" REFERENCING NEW TABLE AS "new_rows" FOR EACH STATEMENT EXECUTE FUNCTION "dashboard_changed_new"();--> statement-breakpoint
CREATE TRIGGER "projects_dashboard_del" AFTER DELETE ON "projects" REFERENCING OLD TABLE AS "old_rows" FOR EACH STATEMENT EXECUTE FUNCTION "dashboard_changed_old"();--> statement-breakpoint
CREATE TRIGGER "clients_dashboard_ins" AFTER INSERT ON "clients" REFERENCING NEW TABLE AS "new_rows" FOR EACH STATEMENT EXECUTE FUNCTION "dashboard_changed_new"();--> statement-breakpoint
CREATE TRIGGER "clients_dashboard_upd" AFTER UPDATE ON "clients" REFERENCING NEW TABLE AS "new_rows" FOR EACH STATEMENT EXECUTE FUNCTION "dashboard_changed_new"();--> statement-breakpoint
CREATE TRIGGER "clients_dashboard_del" AFTER DELETE ON "clients" REFERENCING OLD TABLE AS "old_rows" FOR EACH STATEMENT EXECUTE FUNCTION "dashboard_changed_old"();--> statement-breakpoint
CREATE TRIGGER "client_team_dashboard_ins" AFTER INSERT ON "client_team" REFERENCING NEW TABLE AS "new_rows" FOR EACH STATEMENT EXECUTE FUNCTION "dashboard_changed_new"();--> statement-breakpoint
CREATE TRIGGER "client_team_dashboard_upd" AFTER UPDATE ON "client_team" REFERENCING NEW TABLE AS "new_rows" FOR EACH STATEMENT EXECUTE FUNCTION "dashboard_changed_new"();--> statement-breakpoint
CREATE TRIGGER "client_team_dashboard_del" AFTER DELETE ON "client_team" REFERENCING OLD TABLE AS "old_rows" FOR EACH STATEMENT EXECUTE FUNCTION "dashboard_changed_old"();--> statement-breakpoint
CREATE TRIGGER "services_dashboard_ins" AFTER INSERT ON "services" REFERENCING NEW TABLE AS "new_rows" FOR EACH STATEMENT EXECUTE FUNCTION "dashboard_changed_new"();--> statement-breakpoint
CREATE TRIGGER "services_dashboard_upd" AFTER UPDATE ON "services" REFERENCING NEW TABLE AS "new_rows" FOR EACH STATEMENT EXECUTE FUNCTION "dashboard_changed_new"();--> statement-breakpoint
CREATE TRIGGER "services_dashboard_del" AFTER DELETE ON "services" REFERENCING OLD TABLE AS "old_rows" FOR EACH STATEMENT EXECUTE FUNCTION "dashboard_changed_old"();--> statement-breakpoint
CREATE TRIGGER "system_log_dashboard_ins" AFTER INSERT ON "system_log" REFERENCING NEW TABLE AS "new_rows" FOR EACH STATEMENT EXECUTE FUNCTION "dashboard_changed_new"();--> statement-breakpoint
CREATE TRIGGER "system_log_dashboard_upd" AFTER UPDATE ON "system_log" REFERENCING NEW TABLE AS "new_rows" FOR EACH STATEMENT EXECUTE FUNCTION "dashboard_changed_new"();--> statement-breakpoint
CREATE TRIGGER "system_log_dashboard_del" AFTER DELETE ON "system_log" REFERENCING OLD TABLE AS "old_rows" FOR EACH STATEMENT EXECUTE FUNCTION "dashboard_changed_old"();--> statement-breakpoint
-- Members: only their names are on the dashboard (the activity's actors), not sign-in bookkeeping.
CREATE TRIGGER "members_dashboard_name" AFTER UPDATE OF "first_name", "last_name" ON "members" FOR EACH ROW
  WHEN (OLD."first_name" IS DISTINCT FROM NEW."first_name" OR OLD."last_name" IS DISTINCT FROM NEW."last_name")
  EXECUTE FUNCTION "dashboard_changed_row"();--> statement-breakpoint
CREATE INDEX "projects_live_due_idx" ON "projects" USING btree ("org_id","due_date") WHERE "projects"."archived_at" is null;--> statement-breakpoint
CREATE INDEX "task_assignees_member_open_due_idx" ON "task_assignees" USING btree ("org_id","member_id","due_date") WHERE "task_assignees"."status" in ('SCHEDULED', 'IN_PROGRESS', 'IN_REVIEW');
