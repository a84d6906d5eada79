CREATE TABLE "automation_events" (
	"id" uuid PRIMARY KEY NOT NULL,
	"org_id" uuid NOT NULL,
	"kind" text NOT NULL,
	"project_id" uuid,
	"client_id" uuid,
	"data" jsonb DEFAULT '{}'::jsonb NOT NULL,
	"depth" integer DEFAULT 0 NOT NULL,
	"caused_by_rule_id" uuid,
	"processed_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "automation_events_org_id_id_key" UNIQUE("org_id","id")
);
--> statement-breakpoint
CREATE TABLE "automation_rules" (
	"id" uuid PRIMARY KEY NOT NULL,
	"org_id" uuid NOT NULL,
	"name" text NOT NULL,
	"enabled" boolean DEFAULT false NOT NULL,
	"trigger_kind" text NOT NULL,
	"trigger" jsonb NOT NULL,
	"conditions" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"actions" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"owner_id" uuid,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "automation_rules_org_id_id_key" UNIQUE("org_id","id")
);
--> statement-breakpoint
CREATE TABLE "automation_runs" (
	"id" uuid PRIMARY KEY NOT NULL,
	"org_id" uuid NOT NULL,
	"rule_id" uuid NOT NULL,
	"event_id" uuid NOT NULL,
	"project_id" uuid,
	"outcome" text NOT NULL,
	"detail" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "automation_runs_rule_event_key" UNIQUE("rule_id","event_id")
);
--> statement-breakpoint
CREATE TABLE "template_stages" (
	"id" uuid PRIMARY KEY NOT NULL,
	"org_id" uuid NOT NULL,
	"template_id" uuid NOT NULL,
	"position" integer NOT NULL,
	"name" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "template_stages_org_id_id_key" UNIQUE("org_id","id")
);
--> statement-breakpoint
ALTER TABLE "projects" ADD COLUMN "stage_id" uuid;--> statement-breakpoint
ALTER TABLE "automation_events" ADD CONSTRAINT "automation_events_org_id_orgs_id_fk" FOREIGN KEY ("org_id") REFERENCES "public"."orgs"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "automation_rules" ADD CONSTRAINT "automation_rules_org_id_orgs_id_fk" FOREIGN KEY ("org_id") REFERENCES "public"."orgs"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "automation_rules" ADD CONSTRAINT "automation_rules_owner_fk" FOREIGN KEY ("org_id","owner_id") REFERENCES "public"."members"("org_id","id") ON DELETE SET NULL ("owner_id") ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "automation_runs" ADD CONSTRAINT "automation_runs_org_id_orgs_id_fk" FOREIGN KEY ("org_id") REFERENCES "public"."orgs"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "automation_runs" ADD CONSTRAINT "automation_runs_rule_fk" FOREIGN KEY ("org_id","rule_id") REFERENCES "public"."automation_rules"("org_id","id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "automation_runs" ADD CONSTRAINT "automation_runs_event_fk" FOREIGN KEY ("org_id","event_id") REFERENCES "public"."automation_events"("org_id","id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "template_stages" ADD CONSTRAINT "template_stages_org_id_orgs_id_fk" FOREIGN KEY ("org_id") REFERENCES "public"."orgs"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "template_stages" ADD CONSTRAINT "template_stages_template_fk" FOREIGN KEY ("org_id","template_id") REFERENCES "public"."project_templates"("org_id","id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "automation_events_kind_idx" ON "automation_events" USING btree ("org_id","kind","created_at");--> statement-breakpoint
CREATE INDEX "automation_rules_trigger_idx" ON "automation_rules" USING btree ("org_id","trigger_kind","enabled");--> statement-breakpoint
CREATE INDEX "automation_runs_rule_idx" ON "automation_runs" USING btree ("org_id","rule_id","created_at");--> statement-breakpoint
CREATE INDEX "template_stages_template_idx" ON "template_stages" USING btree ("org_id","template_id","position");--> statement-breakpoint
ALTER TABLE "projects" ADD CONSTRAINT "projects_stage_fk" FOREIGN KEY ("org_id","stage_id") REFERENCES "public"."template_stages"("org_id","id") ON DELETE SET NULL ("stage_id") ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "projects_stage_idx" ON "projects" USING btree ("org_id","template_id","stage_id");;--> statement-breakpoint
-- Automations' right reaches the seeded roles that hold every right by definition (Owner and Admin),
-- as 0046 did for billing.
UPDATE "roles" AS r
SET "permissions" = r."permissions" || ARRAY['automations.manage']::text[],
    "updated_at" = now()
WHERE r."name" IN ('Owner', 'Admin') AND NOT ('automations.manage' = ANY (r."permissions"));
