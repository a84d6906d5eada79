DROP INDEX "clients_search_trgm_idx";--> statement-breakpoint
CREATE INDEX "clients_org_type_search_idx" ON "clients" USING gin ("org_id","type","search_text" gin_trgm_ops);