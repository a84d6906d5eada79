DROP INDEX "projects_service_period_idx";--> statement-breakpoint
ALTER TABLE "projects" ADD COLUMN "engagement_service_id" uuid;--> statement-breakpoint
ALTER TABLE "projects" ADD COLUMN "engagement_start" date;--> statement-breakpoint
ALTER TABLE "projects" ADD COLUMN "engagement_end" date;--> statement-breakpoint
CREATE INDEX "projects_service_period_idx" ON "projects" USING btree ("org_id","service_id","period_key","due_date","client_service_id","client_id","archived_at","status","completed_date","created_at","budget_minutes","id","engagement_service_id","engagement_start","engagement_end");