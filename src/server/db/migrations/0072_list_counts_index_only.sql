DROP INDEX "client_services_service_idx";--> statement-breakpoint
CREATE INDEX "clients_current_name_idx" ON "clients" USING btree ("org_id","name","id") WHERE archived_at is null and not prospect;--> statement-breakpoint
CREATE INDEX "client_services_service_idx" ON "client_services" USING btree ("org_id","service_id","client_id","end_date");