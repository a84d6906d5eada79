DROP INDEX "client_services_service_idx";--> statement-breakpoint
DROP INDEX "timesheet_entries_unapproved_idx";--> statement-breakpoint
DROP INDEX "timesheet_entries_project_idx";--> statement-breakpoint
CREATE INDEX "clients_org_label_idx" ON "clients" USING btree ("org_id","id","name","code","group_id");--> statement-breakpoint
CREATE INDEX "client_services_service_idx" ON "client_services" USING btree ("org_id","service_id","client_id","end_date","start_date");--> statement-breakpoint
CREATE INDEX "timesheet_entries_unapproved_idx" ON "timesheet_entries" USING btree ("org_id","date","member_id","client_id","task_id","service_id","minutes","billable","status","bill_rate","cost_rate") WHERE status <> 'approved';--> statement-breakpoint
CREATE INDEX "timesheet_entries_project_idx" ON "timesheet_entries" USING btree ("org_id","project_id","minutes") WHERE project_id is not null;