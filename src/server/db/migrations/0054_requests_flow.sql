-- Client requests in the flow of work (issue 36): a request names its project and the portal to-do
-- made for it; a project template names the request template its projects send by themselves, and a
-- partial unique key makes that send happen once per project. Foreign keys clear only the link
-- (SET NULL (column), as 0017 explains).
CREATE TABLE "project_template_requests" (
	"org_id" uuid NOT NULL,
	"project_template_id" uuid NOT NULL,
	"request_template_id" uuid NOT NULL,
	"lead_days" integer NOT NULL,
	"due_days_before" integer DEFAULT 0 NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "project_template_requests_org_id_project_template_id_pk" PRIMARY KEY("org_id","project_template_id")
);
--> statement-breakpoint
ALTER TABLE "requests" ADD COLUMN "project_id" uuid;--> statement-breakpoint
ALTER TABLE "requests" ADD COLUMN "task_id" uuid;--> statement-breakpoint
ALTER TABLE "requests" ADD COLUMN "origin" text DEFAULT 'staff' NOT NULL;--> statement-breakpoint
ALTER TABLE "project_template_requests" ADD CONSTRAINT "project_template_requests_org_id_orgs_id_fk" FOREIGN KEY ("org_id") REFERENCES "public"."orgs"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "project_template_requests" ADD CONSTRAINT "project_template_requests_template_fk" FOREIGN KEY ("org_id","project_template_id") REFERENCES "public"."project_templates"("org_id","id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "project_template_requests" ADD CONSTRAINT "project_template_requests_request_template_fk" FOREIGN KEY ("org_id","request_template_id") REFERENCES "public"."request_templates"("org_id","id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "project_template_requests_request_idx" ON "project_template_requests" USING btree ("org_id","request_template_id");--> statement-breakpoint
ALTER TABLE "requests" ADD CONSTRAINT "requests_project_fk" FOREIGN KEY ("org_id","project_id") REFERENCES "public"."projects"("org_id","id") ON DELETE SET NULL ("project_id") ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "requests" ADD CONSTRAINT "requests_task_fk" FOREIGN KEY ("org_id","task_id") REFERENCES "public"."tasks"("org_id","id") ON DELETE SET NULL ("task_id") ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "requests_project_template_key" ON "requests" USING btree ("org_id","project_id") WHERE origin = 'project_template';--> statement-breakpoint
CREATE INDEX "requests_project_idx" ON "requests" USING btree ("org_id","project_id") WHERE project_id is not null;--> statement-breakpoint
CREATE INDEX "requests_task_idx" ON "requests" USING btree ("org_id","task_id") WHERE task_id is not null;