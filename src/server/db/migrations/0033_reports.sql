CREATE TABLE "report_views" (
	"id" uuid PRIMARY KEY NOT NULL,
	"org_id" uuid NOT NULL,
	"member_id" uuid NOT NULL,
	"report" text NOT NULL,
	"name" text NOT NULL,
	"search" jsonb NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "report_views_org_id_id_key" UNIQUE("org_id","id"),
	CONSTRAINT "report_views_member_name_key" UNIQUE("org_id","member_id","report","name")
);
--> statement-breakpoint
CREATE TABLE "task_status_changes" (
	"id" uuid PRIMARY KEY NOT NULL,
	"org_id" uuid NOT NULL,
	"task_id" uuid NOT NULL,
	"from_status" text,
	"to_status" text NOT NULL,
	"member_id" uuid,
	"client_user_id" uuid,
	"at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "report_views" ADD CONSTRAINT "report_views_org_id_orgs_id_fk" FOREIGN KEY ("org_id") REFERENCES "public"."orgs"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "report_views" ADD CONSTRAINT "report_views_member_fk" FOREIGN KEY ("org_id","member_id") REFERENCES "public"."members"("org_id","id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "task_status_changes" ADD CONSTRAINT "task_status_changes_org_id_orgs_id_fk" FOREIGN KEY ("org_id") REFERENCES "public"."orgs"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "task_status_changes" ADD CONSTRAINT "task_status_changes_task_fk" FOREIGN KEY ("org_id","task_id") REFERENCES "public"."tasks"("org_id","id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "task_status_changes" ADD CONSTRAINT "task_status_changes_member_fk" FOREIGN KEY ("org_id","member_id") REFERENCES "public"."members"("org_id","id") ON DELETE SET NULL ("member_id") ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "task_status_changes" ADD CONSTRAINT "task_status_changes_client_user_fk" FOREIGN KEY ("org_id","client_user_id") REFERENCES "public"."client_users"("org_id","id") ON DELETE SET NULL ("client_user_id") ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "report_views_member_idx" ON "report_views" USING btree ("org_id","member_id","report");--> statement-breakpoint
CREATE INDEX "task_status_changes_task_idx" ON "task_status_changes" USING btree ("org_id","task_id","at");--> statement-breakpoint
CREATE INDEX "task_status_changes_org_to_at_idx" ON "task_status_changes" USING btree ("org_id","to_status","at","member_id");--> statement-breakpoint
CREATE INDEX "tasks_org_due_report_idx" ON "tasks" USING btree ("org_id","due_date","client_id","status","completed_date","project_id");--> statement-breakpoint
CREATE INDEX "tasks_org_open_todo_idx" ON "tasks" USING btree ("org_id","client_id") WHERE "tasks"."for_client" and "tasks"."status" <> 'COMPLETED';--> statement-breakpoint
CREATE INDEX "tasks_org_completed_idx" ON "tasks" USING btree ("org_id","completed_date") WHERE "tasks"."completed_date" is not null;