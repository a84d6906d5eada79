CREATE TABLE "holidays" (
	"id" uuid PRIMARY KEY NOT NULL,
	"org_id" uuid NOT NULL,
	"date" date NOT NULL,
	"name" text NOT NULL,
	"office" text,
	"part" text DEFAULT 'full' NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "holidays_org_id_id_key" UNIQUE("org_id","id")
);
--> statement-breakpoint
CREATE TABLE "leave_ledger" (
	"id" uuid PRIMARY KEY NOT NULL,
	"org_id" uuid NOT NULL,
	"member_id" uuid NOT NULL,
	"leave_type_id" uuid NOT NULL,
	"kind" text NOT NULL,
	"amount" integer NOT NULL,
	"effective_on" date NOT NULL,
	"request_id" uuid,
	"run_key" text,
	"note" text,
	"created_by" uuid,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "leave_ledger_org_id_id_key" UNIQUE("org_id","id"),
	CONSTRAINT "leave_ledger_org_run_key" UNIQUE("org_id","run_key")
);
--> statement-breakpoint
CREATE TABLE "leave_requests" (
	"id" uuid PRIMARY KEY NOT NULL,
	"org_id" uuid NOT NULL,
	"member_id" uuid NOT NULL,
	"leave_type_id" uuid NOT NULL,
	"start_date" date NOT NULL,
	"end_date" date NOT NULL,
	"part" text DEFAULT 'full' NOT NULL,
	"minutes" integer,
	"amount" integer NOT NULL,
	"reason" text,
	"status" text DEFAULT 'pending' NOT NULL,
	"needs_second_level" boolean DEFAULT false NOT NULL,
	"first_approver_id" uuid,
	"first_approved_at" timestamp with time zone,
	"decided_by" uuid,
	"decided_at" timestamp with time zone,
	"decision_comment" text,
	"cancelled_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "leave_requests_org_id_id_key" UNIQUE("org_id","id")
);
--> statement-breakpoint
CREATE TABLE "leave_runs" (
	"id" uuid PRIMARY KEY NOT NULL,
	"org_id" uuid NOT NULL,
	"kind" text NOT NULL,
	"period" text NOT NULL,
	"status" text DEFAULT 'running' NOT NULL,
	"entries" integer DEFAULT 0 NOT NULL,
	"error" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"finished_at" timestamp with time zone,
	CONSTRAINT "leave_runs_org_id_id_key" UNIQUE("org_id","id")
);
--> statement-breakpoint
CREATE TABLE "leave_settings" (
	"org_id" uuid PRIMARY KEY NOT NULL,
	"working_days" smallint[] DEFAULT '{1,2,3,4,5}'::smallint[] NOT NULL,
	"minutes_per_day" integer DEFAULT 480 NOT NULL,
	"offices" text[] DEFAULT '{}'::text[] NOT NULL,
	"second_level_after_days" integer,
	"away_warn_percent" integer DEFAULT 30 NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "leave_types" (
	"id" uuid PRIMARY KEY NOT NULL,
	"org_id" uuid NOT NULL,
	"name" text NOT NULL,
	"paid" boolean DEFAULT true NOT NULL,
	"unit" text DEFAULT 'day' NOT NULL,
	"accrual" text DEFAULT 'yearly' NOT NULL,
	"allowance" integer DEFAULT 0 NOT NULL,
	"rounding" text DEFAULT 'none' NOT NULL,
	"carry_forward_cap" integer,
	"carry_forward_expiry_months" smallint,
	"allow_negative" boolean DEFAULT false NOT NULL,
	"count_weekends" boolean DEFAULT false NOT NULL,
	"count_holidays" boolean DEFAULT false NOT NULL,
	"max_consecutive_days" integer,
	"archived_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "leave_types_org_id_id_key" UNIQUE("org_id","id"),
	CONSTRAINT "leave_types_org_name_key" UNIQUE("org_id","name")
);
--> statement-breakpoint
CREATE TABLE "member_work" (
	"id" uuid PRIMARY KEY NOT NULL,
	"org_id" uuid NOT NULL,
	"member_id" uuid NOT NULL,
	"manager_id" uuid,
	"office" text,
	"working_days" smallint[],
	"minutes_per_day" integer,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "member_work_org_id_id_key" UNIQUE("org_id","id"),
	CONSTRAINT "member_work_org_member_key" UNIQUE("org_id","member_id")
);
--> statement-breakpoint
ALTER TABLE "holidays" ADD CONSTRAINT "holidays_org_id_orgs_id_fk" FOREIGN KEY ("org_id") REFERENCES "public"."orgs"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "leave_ledger" ADD CONSTRAINT "leave_ledger_org_id_orgs_id_fk" FOREIGN KEY ("org_id") REFERENCES "public"."orgs"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "leave_ledger" ADD CONSTRAINT "leave_ledger_member_fk" FOREIGN KEY ("org_id","member_id") REFERENCES "public"."members"("org_id","id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "leave_ledger" ADD CONSTRAINT "leave_ledger_type_fk" FOREIGN KEY ("org_id","leave_type_id") REFERENCES "public"."leave_types"("org_id","id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "leave_ledger" ADD CONSTRAINT "leave_ledger_request_fk" FOREIGN KEY ("org_id","request_id") REFERENCES "public"."leave_requests"("org_id","id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "leave_ledger" ADD CONSTRAINT "leave_ledger_created_by_fk" FOREIGN KEY ("org_id","created_by") REFERENCES "public"."members"("org_id","id") ON DELETE SET NULL ("created_by") ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "leave_requests" ADD CONSTRAINT "leave_requests_org_id_orgs_id_fk" FOREIGN KEY ("org_id") REFERENCES "public"."orgs"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "leave_requests" ADD CONSTRAINT "leave_requests_member_fk" FOREIGN KEY ("org_id","member_id") REFERENCES "public"."members"("org_id","id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "leave_requests" ADD CONSTRAINT "leave_requests_type_fk" FOREIGN KEY ("org_id","leave_type_id") REFERENCES "public"."leave_types"("org_id","id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "leave_requests" ADD CONSTRAINT "leave_requests_first_approver_fk" FOREIGN KEY ("org_id","first_approver_id") REFERENCES "public"."members"("org_id","id") ON DELETE SET NULL ("first_approver_id") ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "leave_requests" ADD CONSTRAINT "leave_requests_decided_by_fk" FOREIGN KEY ("org_id","decided_by") REFERENCES "public"."members"("org_id","id") ON DELETE SET NULL ("decided_by") ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "leave_runs" ADD CONSTRAINT "leave_runs_org_id_orgs_id_fk" FOREIGN KEY ("org_id") REFERENCES "public"."orgs"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "leave_settings" ADD CONSTRAINT "leave_settings_org_id_orgs_id_fk" FOREIGN KEY ("org_id") REFERENCES "public"."orgs"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "leave_types" ADD CONSTRAINT "leave_types_org_id_orgs_id_fk" FOREIGN KEY ("org_id") REFERENCES "public"."orgs"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "member_work" ADD CONSTRAINT "member_work_org_id_orgs_id_fk" FOREIGN KEY ("org_id") REFERENCES "public"."orgs"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "member_work" ADD CONSTRAINT "member_work_member_fk" FOREIGN KEY ("org_id","member_id") REFERENCES "public"."members"("org_id","id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "member_work" ADD CONSTRAINT "member_work_manager_fk" FOREIGN KEY ("org_id","manager_id") REFERENCES "public"."members"("org_id","id") ON DELETE SET NULL ("manager_id") ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "holidays_org_date_office_idx" ON "holidays" USING btree ("org_id","date",coalesce("office", ''));--> statement-breakpoint
CREATE INDEX "leave_ledger_org_effective_idx" ON "leave_ledger" USING btree ("org_id","effective_on","member_id","leave_type_id");--> statement-breakpoint
CREATE INDEX "leave_ledger_org_member_idx" ON "leave_ledger" USING btree ("org_id","member_id","leave_type_id","effective_on");--> statement-breakpoint
CREATE INDEX "leave_requests_org_member_start_idx" ON "leave_requests" USING btree ("org_id","member_id","start_date");--> statement-breakpoint
CREATE INDEX "leave_requests_org_status_start_idx" ON "leave_requests" USING btree ("org_id","status","start_date");--> statement-breakpoint
CREATE INDEX "leave_runs_org_started_idx" ON "leave_runs" USING btree ("org_id","created_at");--> statement-breakpoint
CREATE INDEX "member_work_org_manager_idx" ON "member_work" USING btree ("org_id","manager_id");