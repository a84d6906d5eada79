DROP INDEX "tasks_org_completed_idx";--> statement-breakpoint
CREATE INDEX "tasks_org_completed_id_idx" ON "tasks" USING btree ("org_id","completed_date","id") WHERE "tasks"."completed_date" is not null;--> statement-breakpoint
CREATE INDEX "tasks_open_budgeted_idx" ON "tasks" USING btree ("org_id","id") WHERE "tasks"."budget_minutes" is not null and "tasks"."status" <> 'COMPLETED';