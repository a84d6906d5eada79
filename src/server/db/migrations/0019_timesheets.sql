CREATE TABLE "timesheet_entries" (
	"id" uuid PRIMARY KEY NOT NULL,
	"org_id" uuid NOT NULL,
	"member_id" uuid NOT NULL,
	"date" date NOT NULL,
	"minutes" integer NOT NULL,
	"client_id" uuid,
	"project_id" uuid,
	"task_id" uuid,
	"service_id" uuid,
	"billable" boolean DEFAULT false NOT NULL,
	"note" text DEFAULT '' NOT NULL,
	"status" text DEFAULT 'draft' NOT NULL,
	"bill_rate" integer,
	"cost_rate" integer,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "timesheet_entries_org_id_id_key" UNIQUE("org_id","id")
);
--> statement-breakpoint
CREATE TABLE "timesheet_rates" (
	"org_id" uuid NOT NULL,
	"kind" text NOT NULL,
	"ref_id" uuid NOT NULL,
	"rate" integer NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "timesheet_rates_org_id_kind_ref_id_pk" PRIMARY KEY("org_id","kind","ref_id")
);
--> statement-breakpoint
CREATE TABLE "timesheet_settings" (
	"org_id" uuid PRIMARY KEY NOT NULL,
	"lock_date" date,
	"grace_days" integer DEFAULT 0 NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "timesheet_timers" (
	"id" uuid PRIMARY KEY NOT NULL,
	"org_id" uuid NOT NULL,
	"member_id" uuid NOT NULL,
	"started_at" timestamp with time zone NOT NULL,
	"stopped_at" timestamp with time zone,
	"auto_stopped" boolean DEFAULT false NOT NULL,
	"notice_sent_at" timestamp with time zone,
	"client_id" uuid,
	"project_id" uuid,
	"task_id" uuid,
	"note" text DEFAULT '' NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "timesheet_weeks" (
	"org_id" uuid NOT NULL,
	"member_id" uuid NOT NULL,
	"week_start" date NOT NULL,
	"status" text NOT NULL,
	"submitted_at" timestamp with time zone,
	"decided_at" timestamp with time zone,
	"decided_by" uuid,
	"comment" text,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "timesheet_weeks_org_id_member_id_week_start_pk" PRIMARY KEY("org_id","member_id","week_start")
);
--> statement-breakpoint
ALTER TABLE "timesheet_entries" ADD CONSTRAINT "timesheet_entries_org_id_orgs_id_fk" FOREIGN KEY ("org_id") REFERENCES "public"."orgs"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "timesheet_entries" ADD CONSTRAINT "timesheet_entries_member_fk" FOREIGN KEY ("org_id","member_id") REFERENCES "public"."members"("org_id","id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "timesheet_entries" ADD CONSTRAINT "timesheet_entries_client_fk" FOREIGN KEY ("org_id","client_id") REFERENCES "public"."clients"("org_id","id") ON DELETE SET NULL ("client_id") ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "timesheet_entries" ADD CONSTRAINT "timesheet_entries_project_fk" FOREIGN KEY ("org_id","project_id") REFERENCES "public"."projects"("org_id","id") ON DELETE SET NULL ("project_id") ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "timesheet_entries" ADD CONSTRAINT "timesheet_entries_task_fk" FOREIGN KEY ("org_id","task_id") REFERENCES "public"."tasks"("org_id","id") ON DELETE SET NULL ("task_id") ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "timesheet_entries" ADD CONSTRAINT "timesheet_entries_service_fk" FOREIGN KEY ("org_id","service_id") REFERENCES "public"."services"("org_id","id") ON DELETE SET NULL ("service_id") ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "timesheet_rates" ADD CONSTRAINT "timesheet_rates_org_id_orgs_id_fk" FOREIGN KEY ("org_id") REFERENCES "public"."orgs"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "timesheet_settings" ADD CONSTRAINT "timesheet_settings_org_id_orgs_id_fk" FOREIGN KEY ("org_id") REFERENCES "public"."orgs"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "timesheet_timers" ADD CONSTRAINT "timesheet_timers_org_id_orgs_id_fk" FOREIGN KEY ("org_id") REFERENCES "public"."orgs"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "timesheet_timers" ADD CONSTRAINT "timesheet_timers_member_fk" FOREIGN KEY ("org_id","member_id") REFERENCES "public"."members"("org_id","id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "timesheet_timers" ADD CONSTRAINT "timesheet_timers_client_fk" FOREIGN KEY ("org_id","client_id") REFERENCES "public"."clients"("org_id","id") ON DELETE SET NULL ("client_id") ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "timesheet_timers" ADD CONSTRAINT "timesheet_timers_project_fk" FOREIGN KEY ("org_id","project_id") REFERENCES "public"."projects"("org_id","id") ON DELETE SET NULL ("project_id") ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "timesheet_timers" ADD CONSTRAINT "timesheet_timers_task_fk" FOREIGN KEY ("org_id","task_id") REFERENCES "public"."tasks"("org_id","id") ON DELETE SET NULL ("task_id") ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "timesheet_weeks" ADD CONSTRAINT "timesheet_weeks_org_id_orgs_id_fk" FOREIGN KEY ("org_id") REFERENCES "public"."orgs"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "timesheet_weeks" ADD CONSTRAINT "timesheet_weeks_member_fk" FOREIGN KEY ("org_id","member_id") REFERENCES "public"."members"("org_id","id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "timesheet_weeks" ADD CONSTRAINT "timesheet_weeks_decided_by_fk" FOREIGN KEY ("org_id","decided_by") REFERENCES "public"."members"("org_id","id") ON DELETE SET NULL ("decided_by") ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "timesheet_entries_member_date_idx" ON "timesheet_entries" USING btree ("org_id","member_id","date");--> statement-breakpoint
CREATE INDEX "timesheet_entries_org_date_idx" ON "timesheet_entries" USING btree ("org_id","date");--> statement-breakpoint
CREATE INDEX "timesheet_entries_task_idx" ON "timesheet_entries" USING btree ("org_id","task_id") WHERE task_id is not null;--> statement-breakpoint
CREATE INDEX "timesheet_entries_project_idx" ON "timesheet_entries" USING btree ("org_id","project_id") WHERE project_id is not null;--> statement-breakpoint
CREATE UNIQUE INDEX "timesheet_timers_running_key" ON "timesheet_timers" USING btree ("org_id","member_id") WHERE stopped_at is null;--> statement-breakpoint
CREATE INDEX "timesheet_timers_running_idx" ON "timesheet_timers" USING btree ("started_at") WHERE stopped_at is null;--> statement-breakpoint
CREATE INDEX "timesheet_weeks_org_week_idx" ON "timesheet_weeks" USING btree ("org_id","week_start");