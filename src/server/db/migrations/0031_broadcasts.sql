CREATE TABLE "broadcast_deliveries" (
	"id" uuid PRIMARY KEY NOT NULL,
	"org_id" uuid NOT NULL,
	"broadcast_id" uuid NOT NULL,
	"recipient_key" text NOT NULL,
	"client_id" uuid,
	"email" text NOT NULL,
	"contact_name" text,
	"cc" text[] DEFAULT '{}'::text[] NOT NULL,
	"state" text DEFAULT 'queued' NOT NULL,
	"attempts" integer DEFAULT 0 NOT NULL,
	"next_attempt_at" timestamp with time zone DEFAULT now() NOT NULL,
	"claimed_by" text,
	"claimed_until" timestamp with time zone,
	"error" text,
	"sent_at" timestamp with time zone,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "broadcast_deliveries_recipient_key" UNIQUE("broadcast_id","recipient_key")
);
--> statement-breakpoint
CREATE TABLE "broadcast_settings" (
	"org_id" uuid PRIMARY KEY NOT NULL,
	"rate_per_second" integer DEFAULT 10 NOT NULL,
	"daily_cap" integer DEFAULT 10000 NOT NULL,
	"pump_by" text,
	"pump_until" timestamp with time zone,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "broadcast_suppressions" (
	"org_id" uuid NOT NULL,
	"email" text NOT NULL,
	"reason" text NOT NULL,
	"detail" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "broadcast_suppressions_org_id_email_pk" PRIMARY KEY("org_id","email")
);
--> statement-breakpoint
CREATE TABLE "broadcast_templates" (
	"id" uuid PRIMARY KEY NOT NULL,
	"org_id" uuid NOT NULL,
	"name" text NOT NULL,
	"subject" text NOT NULL,
	"body_html" text NOT NULL,
	"created_by" uuid,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "broadcast_templates_org_id_id_key" UNIQUE("org_id","id")
);
--> statement-breakpoint
CREATE TABLE "broadcasts" (
	"id" uuid PRIMARY KEY NOT NULL,
	"org_id" uuid NOT NULL,
	"template_id" uuid,
	"subject" text NOT NULL,
	"body_html" text NOT NULL,
	"mode" text DEFAULT 'client' NOT NULL,
	"audience" jsonb NOT NULL,
	"status" text NOT NULL,
	"send_at" timestamp with time zone DEFAULT now() NOT NULL,
	"pause_reason" text,
	"recipient_count" integer DEFAULT 0 NOT NULL,
	"completed_at" timestamp with time zone,
	"created_by" uuid,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "broadcasts_org_id_id_key" UNIQUE("org_id","id")
);
--> statement-breakpoint
ALTER TABLE "broadcast_deliveries" ADD CONSTRAINT "broadcast_deliveries_org_id_orgs_id_fk" FOREIGN KEY ("org_id") REFERENCES "public"."orgs"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "broadcast_deliveries" ADD CONSTRAINT "broadcast_deliveries_broadcast_fk" FOREIGN KEY ("org_id","broadcast_id") REFERENCES "public"."broadcasts"("org_id","id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "broadcast_deliveries" ADD CONSTRAINT "broadcast_deliveries_client_fk" FOREIGN KEY ("org_id","client_id") REFERENCES "public"."clients"("org_id","id") ON DELETE SET NULL ("client_id") ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "broadcast_settings" ADD CONSTRAINT "broadcast_settings_org_id_orgs_id_fk" FOREIGN KEY ("org_id") REFERENCES "public"."orgs"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "broadcast_suppressions" ADD CONSTRAINT "broadcast_suppressions_org_id_orgs_id_fk" FOREIGN KEY ("org_id") REFERENCES "public"."orgs"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "broadcast_templates" ADD CONSTRAINT "broadcast_templates_org_id_orgs_id_fk" FOREIGN KEY ("org_id") REFERENCES "public"."orgs"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "broadcast_templates" ADD CONSTRAINT "broadcast_templates_created_by_fk" FOREIGN KEY ("org_id","created_by") REFERENCES "public"."members"("org_id","id") ON DELETE SET NULL ("created_by") ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "broadcasts" ADD CONSTRAINT "broadcasts_org_id_orgs_id_fk" FOREIGN KEY ("org_id") REFERENCES "public"."orgs"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "broadcasts" ADD CONSTRAINT "broadcasts_template_fk" FOREIGN KEY ("org_id","template_id") REFERENCES "public"."broadcast_templates"("org_id","id") ON DELETE SET NULL ("template_id") ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "broadcasts" ADD CONSTRAINT "broadcasts_created_by_fk" FOREIGN KEY ("org_id","created_by") REFERENCES "public"."members"("org_id","id") ON DELETE SET NULL ("created_by") ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "broadcast_deliveries_broadcast_state_idx" ON "broadcast_deliveries" USING btree ("org_id","broadcast_id","state","id");--> statement-breakpoint
CREATE INDEX "broadcast_deliveries_claimed_idx" ON "broadcast_deliveries" USING btree ("claimed_until") WHERE state = 'sending';--> statement-breakpoint
CREATE INDEX "broadcast_deliveries_sent_idx" ON "broadcast_deliveries" USING btree ("org_id","sent_at") WHERE sent_at is not null;--> statement-breakpoint
CREATE INDEX "broadcast_deliveries_client_idx" ON "broadcast_deliveries" USING btree ("org_id","client_id","id");--> statement-breakpoint
CREATE INDEX "broadcast_templates_org_name_idx" ON "broadcast_templates" USING btree ("org_id","name");--> statement-breakpoint
CREATE INDEX "broadcasts_org_created_idx" ON "broadcasts" USING btree ("org_id","created_at","id");--> statement-breakpoint
CREATE INDEX "broadcasts_active_idx" ON "broadcasts" USING btree ("status","send_at") WHERE status in ('scheduled', 'sending');--> statement-breakpoint
-- The new right to send broadcasts reaches the seeded roles that hold it by definition
-- (src/domain/permissions.ts SEEDED_ROLES: Owner and Admin), as 0022 did for the rights added then.
UPDATE "roles" AS r
SET "permissions" = r."permissions" || ARRAY['broadcasts.send']::text[],
    "updated_at" = now()
WHERE r."name" IN ('Owner', 'Admin') AND NOT ('broadcasts.send' = ANY (r."permissions"));
