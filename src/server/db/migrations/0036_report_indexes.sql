DROP INDEX "projects_live_due_idx";--> statement-breakpoint
DROP INDEX "tasks_org_open_due_idx";--> statement-breakpoint
DROP INDEX "timesheet_entries_org_date_minutes_idx";--> statement-breakpoint
CREATE INDEX "clients_archived_idx" ON "clients" USING btree ("org_id","id") WHERE archived_at is not null;--> statement-breakpoint
CREATE INDEX "projects_service_period_idx" ON "projects" USING btree ("org_id","service_id","period_key","due_date","client_service_id","client_id","archived_at","status","completed_date","created_at","budget_minutes","id");--> statement-breakpoint
CREATE INDEX "timesheet_entries_unapproved_idx" ON "timesheet_entries" USING btree ("org_id","date") WHERE status <> 'approved';--> statement-breakpoint
CREATE INDEX "timesheet_entries_client_date_idx" ON "timesheet_entries" USING btree ("org_id","client_id","date") WHERE client_id is not null;--> statement-breakpoint
CREATE INDEX "projects_live_due_idx" ON "projects" USING btree ("org_id","due_date","status","client_id","budget_minutes","id") WHERE "projects"."archived_at" is null;--> statement-breakpoint
CREATE INDEX "tasks_org_open_due_idx" ON "tasks" USING btree ("org_id","due_date","id","client_id") WHERE "tasks"."status" <> 'COMPLETED';--> statement-breakpoint
CREATE INDEX "timesheet_entries_org_date_minutes_idx" ON "timesheet_entries" USING btree ("org_id","date","member_id","minutes","billable","status","client_id","bill_rate","cost_rate");