ALTER TABLE "template_tasks" ADD COLUMN "stage_id" uuid;--> statement-breakpoint
ALTER TABLE "tasks" ADD COLUMN "stage_id" uuid;--> statement-breakpoint
ALTER TABLE "template_tasks" ADD CONSTRAINT "template_tasks_stage_fk" FOREIGN KEY ("org_id","stage_id") REFERENCES "public"."template_stages"("org_id","id") ON DELETE SET NULL ("stage_id") ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "tasks" ADD CONSTRAINT "tasks_stage_fk" FOREIGN KEY ("org_id","stage_id") REFERENCES "public"."template_stages"("org_id","id") ON DELETE SET NULL ("stage_id") ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "template_tasks_stage_idx" ON "template_tasks" USING btree ("org_id","stage_id");--> statement-breakpoint
CREATE INDEX "tasks_stage_idx" ON "tasks" USING btree ("org_id","stage_id","project_id") WHERE "tasks"."stage_id" is not null;
