ALTER TABLE "task_assignees" ADD COLUMN "completed_date" timestamp with time zone;--> statement-breakpoint
UPDATE "task_assignees" a SET "completed_date" = t."completed_date"
  FROM "tasks" t WHERE t."org_id" = a."org_id" AND t."id" = a."task_id" AND t."completed_date" IS NOT NULL;--> statement-breakpoint
-- The assignee rows copy their task's completion date too, so the team report counts a member's
-- completed tasks in a period from one index range: the same two triggers as 0030, one more column.
CREATE OR REPLACE FUNCTION "task_assignees_copy_task"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  SELECT t."status", t."due_date", t."completed_date" INTO NEW."status", NEW."due_date", NEW."completed_date"
    FROM "tasks" t WHERE t."org_id" = NEW."org_id" AND t."id" = NEW."task_id";
  RETURN NEW;
END $$;--> statement-breakpoint
CREATE OR REPLACE FUNCTION "tasks_copy_to_assignees"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  UPDATE "task_assignees" SET "status" = NEW."status", "due_date" = NEW."due_date", "completed_date" = NEW."completed_date"
    WHERE "org_id" = NEW."org_id" AND "task_id" = NEW."id";
  RETURN NULL;
END $$;--> statement-breakpoint
DROP TRIGGER "tasks_copy_to_assignees" ON "tasks";--> statement-breakpoint
CREATE TRIGGER "tasks_copy_to_assignees" AFTER UPDATE OF "status", "due_date", "completed_date" ON "tasks"
  FOR EACH ROW WHEN (OLD."status" IS DISTINCT FROM NEW."status" OR OLD."due_date" IS DISTINCT FROM NEW."due_date"
    OR OLD."completed_date" IS DISTINCT FROM NEW."completed_date")
  EXECUTE FUNCTION "tasks_copy_to_assignees"();--> statement-breakpoint
CREATE INDEX "task_assignees_completed_idx" ON "task_assignees" USING btree ("org_id","completed_date","member_id") WHERE "task_assignees"."completed_date" is not null;
