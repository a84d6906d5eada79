CREATE TABLE "client_groups" (
	"id" uuid PRIMARY KEY NOT NULL,
	"org_id" uuid NOT NULL,
	"name" text NOT NULL,
	"description" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "client_groups_org_id_id_key" UNIQUE("org_id","id"),
	CONSTRAINT "client_groups_org_id_name_key" UNIQUE("org_id","name")
);
--> statement-breakpoint
CREATE TABLE "client_service_assignees" (
	"org_id" uuid NOT NULL,
	"client_service_id" uuid NOT NULL,
	"member_id" uuid NOT NULL,
	CONSTRAINT "client_service_assignees_org_id_client_service_id_member_id_pk" PRIMARY KEY("org_id","client_service_id","member_id")
);
--> statement-breakpoint
CREATE TABLE "client_services" (
	"id" uuid PRIMARY KEY NOT NULL,
	"org_id" uuid NOT NULL,
	"client_id" uuid NOT NULL,
	"service_id" uuid NOT NULL,
	"start_date" date NOT NULL,
	"end_date" date,
	"fee" numeric(12, 2),
	"notes" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "client_services_org_id_id_key" UNIQUE("org_id","id")
);
--> statement-breakpoint
CREATE TABLE "client_team" (
	"org_id" uuid NOT NULL,
	"client_id" uuid NOT NULL,
	"member_id" uuid NOT NULL,
	"responsibility" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "client_team_org_id_client_id_member_id_pk" PRIMARY KEY("org_id","client_id","member_id")
);
--> statement-breakpoint
CREATE TABLE "clients" (
	"id" uuid PRIMARY KEY NOT NULL,
	"org_id" uuid NOT NULL,
	"code" text NOT NULL,
	"name" text NOT NULL,
	"type" text DEFAULT 'individual' NOT NULL,
	"group_id" uuid,
	"email" text,
	"phone" text,
	"address_line1" text,
	"address_line2" text,
	"city" text,
	"region" text,
	"postal_code" text,
	"country" text,
	"lat" double precision,
	"lng" double precision,
	"tax_ids" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"tags" text[] DEFAULT '{}'::text[] NOT NULL,
	"status" text DEFAULT 'active' NOT NULL,
	"notes" text,
	"archived_at" timestamp with time zone,
	"search_text" text GENERATED ALWAYS AS (lower(name || ' ' || code || ' ' || coalesce(email, '') || ' ' || coalesce(phone, '') || ' ' || tax_ids::text)) STORED,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "clients_org_id_id_key" UNIQUE("org_id","id"),
	CONSTRAINT "clients_org_id_code_key" UNIQUE("org_id","code")
);
--> statement-breakpoint
CREATE TABLE "services" (
	"id" uuid PRIMARY KEY NOT NULL,
	"org_id" uuid NOT NULL,
	"name" text NOT NULL,
	"code" text NOT NULL,
	"category" text,
	"description" text,
	"frequency" text DEFAULT 'yearly' NOT NULL,
	"due_date_rule" jsonb,
	"default_fee" numeric(12, 2),
	"project_template_id" uuid,
	"archived_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "services_org_id_id_key" UNIQUE("org_id","id"),
	CONSTRAINT "services_org_id_code_key" UNIQUE("org_id","code")
);
--> statement-breakpoint
ALTER TABLE "client_groups" ADD CONSTRAINT "client_groups_org_id_orgs_id_fk" FOREIGN KEY ("org_id") REFERENCES "public"."orgs"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "client_service_assignees" ADD CONSTRAINT "client_service_assignees_org_id_orgs_id_fk" FOREIGN KEY ("org_id") REFERENCES "public"."orgs"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "client_service_assignees" ADD CONSTRAINT "client_service_assignees_engagement_fk" FOREIGN KEY ("org_id","client_service_id") REFERENCES "public"."client_services"("org_id","id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "client_service_assignees" ADD CONSTRAINT "client_service_assignees_member_fk" FOREIGN KEY ("org_id","member_id") REFERENCES "public"."members"("org_id","id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "client_services" ADD CONSTRAINT "client_services_org_id_orgs_id_fk" FOREIGN KEY ("org_id") REFERENCES "public"."orgs"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "client_services" ADD CONSTRAINT "client_services_client_fk" FOREIGN KEY ("org_id","client_id") REFERENCES "public"."clients"("org_id","id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "client_services" ADD CONSTRAINT "client_services_service_fk" FOREIGN KEY ("org_id","service_id") REFERENCES "public"."services"("org_id","id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "client_team" ADD CONSTRAINT "client_team_org_id_orgs_id_fk" FOREIGN KEY ("org_id") REFERENCES "public"."orgs"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "client_team" ADD CONSTRAINT "client_team_client_fk" FOREIGN KEY ("org_id","client_id") REFERENCES "public"."clients"("org_id","id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "client_team" ADD CONSTRAINT "client_team_member_fk" FOREIGN KEY ("org_id","member_id") REFERENCES "public"."members"("org_id","id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "clients" ADD CONSTRAINT "clients_org_id_orgs_id_fk" FOREIGN KEY ("org_id") REFERENCES "public"."orgs"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "clients" ADD CONSTRAINT "clients_group_fk" FOREIGN KEY ("org_id","group_id") REFERENCES "public"."client_groups"("org_id","id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "services" ADD CONSTRAINT "services_org_id_orgs_id_fk" FOREIGN KEY ("org_id") REFERENCES "public"."orgs"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "client_service_assignees_member_idx" ON "client_service_assignees" USING btree ("org_id","member_id");--> statement-breakpoint
CREATE INDEX "client_services_client_idx" ON "client_services" USING btree ("org_id","client_id");--> statement-breakpoint
CREATE INDEX "client_services_service_idx" ON "client_services" USING btree ("org_id","service_id","client_id");--> statement-breakpoint
CREATE INDEX "client_team_member_idx" ON "client_team" USING btree ("org_id","member_id");--> statement-breakpoint
CREATE INDEX "clients_org_name_idx" ON "clients" USING btree ("org_id","name","id");--> statement-breakpoint
CREATE INDEX "clients_org_created_idx" ON "clients" USING btree ("org_id","created_at","id");--> statement-breakpoint
CREATE INDEX "clients_org_group_idx" ON "clients" USING btree ("org_id","group_id");--> statement-breakpoint
CREATE INDEX "clients_org_email_idx" ON "clients" USING btree ("org_id","email");--> statement-breakpoint
CREATE INDEX "clients_search_trgm_idx" ON "clients" USING gin ("search_text" gin_trgm_ops);--> statement-breakpoint
CREATE INDEX "clients_tags_idx" ON "clients" USING gin ("tags");--> statement-breakpoint
CREATE INDEX "services_org_name_idx" ON "services" USING btree ("org_id","name");