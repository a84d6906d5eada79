DROP INDEX "leave_ledger_org_effective_idx";--> statement-breakpoint
DROP INDEX "timesheet_entries_org_date_idx";--> statement-breakpoint
CREATE INDEX "leave_ledger_org_effective_amount_idx" ON "leave_ledger" USING btree ("org_id","effective_on","member_id","leave_type_id","kind","amount");--> statement-breakpoint
CREATE INDEX "leave_requests_org_status_end_idx" ON "leave_requests" USING btree ("org_id","status","end_date");--> statement-breakpoint
CREATE INDEX "timesheet_entries_org_date_minutes_idx" ON "timesheet_entries" USING btree ("org_id","date","member_id","minutes");