ALTER TABLE "project_templates" ADD COLUMN "budget_minutes" integer;--> statement-breakpoint
ALTER TABLE "template_tasks" ADD COLUMN "budget_minutes" integer;--> statement-breakpoint
ALTER TABLE "projects" ADD COLUMN "budget_minutes" integer;--> statement-breakpoint
ALTER TABLE "projects" ADD COLUMN "budget_notified" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "tasks" ADD COLUMN "budget_minutes" integer;--> statement-breakpoint
ALTER TABLE "tasks" ADD COLUMN "budget_notified" integer DEFAULT 0 NOT NULL;