CREATE TABLE "request_item_files" (
	"org_id" uuid NOT NULL,
	"item_id" uuid NOT NULL,
	"document_id" uuid NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "request_item_files_org_id_item_id_document_id_pk" PRIMARY KEY("org_id","item_id","document_id")
);
--> statement-breakpoint
CREATE TABLE "request_items" (
	"id" uuid PRIMARY KEY NOT NULL,
	"org_id" uuid NOT NULL,
	"request_id" uuid NOT NULL,
	"position" integer NOT NULL,
	"section" text DEFAULT '' NOT NULL,
	"key" text NOT NULL,
	"kind" text NOT NULL,
	"label" text NOT NULL,
	"hint" text DEFAULT '' NOT NULL,
	"required" boolean DEFAULT true NOT NULL,
	"options" text[] DEFAULT '{}'::text[] NOT NULL,
	"condition" jsonb,
	"value" jsonb,
	"not_applicable_reason" text,
	"answered_at" timestamp with time zone,
	"review" text DEFAULT 'pending' NOT NULL,
	"return_reason" text,
	"reviewed_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "request_items_org_id_id_key" UNIQUE("org_id","id"),
	CONSTRAINT "request_items_key_key" UNIQUE("org_id","request_id","key")
);
--> statement-breakpoint
CREATE TABLE "request_recipients" (
	"org_id" uuid NOT NULL,
	"request_id" uuid NOT NULL,
	"client_user_id" uuid NOT NULL,
	CONSTRAINT "request_recipients_org_id_request_id_client_user_id_pk" PRIMARY KEY("org_id","request_id","client_user_id")
);
--> statement-breakpoint
CREATE TABLE "request_templates" (
	"id" uuid PRIMARY KEY NOT NULL,
	"org_id" uuid NOT NULL,
	"name" text NOT NULL,
	"description" text DEFAULT '' NOT NULL,
	"sections" jsonb NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "request_templates_org_id_id_key" UNIQUE("org_id","id")
);
--> statement-breakpoint
CREATE TABLE "requests" (
	"id" uuid PRIMARY KEY NOT NULL,
	"org_id" uuid NOT NULL,
	"client_id" uuid NOT NULL,
	"title" text NOT NULL,
	"message" text DEFAULT '' NOT NULL,
	"template_name" text,
	"status" text DEFAULT 'draft' NOT NULL,
	"due_date" date NOT NULL,
	"folder_id" uuid,
	"created_by" uuid,
	"sent_at" timestamp with time zone,
	"submitted_at" timestamp with time zone,
	"completed_at" timestamp with time zone,
	"cancelled_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "requests_org_id_id_key" UNIQUE("org_id","id")
);
--> statement-breakpoint
ALTER TABLE "request_item_files" ADD CONSTRAINT "request_item_files_org_id_orgs_id_fk" FOREIGN KEY ("org_id") REFERENCES "public"."orgs"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "request_item_files" ADD CONSTRAINT "request_item_files_item_fk" FOREIGN KEY ("org_id","item_id") REFERENCES "public"."request_items"("org_id","id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "request_item_files" ADD CONSTRAINT "request_item_files_document_fk" FOREIGN KEY ("org_id","document_id") REFERENCES "public"."documents"("org_id","id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "request_items" ADD CONSTRAINT "request_items_org_id_orgs_id_fk" FOREIGN KEY ("org_id") REFERENCES "public"."orgs"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "request_items" ADD CONSTRAINT "request_items_request_fk" FOREIGN KEY ("org_id","request_id") REFERENCES "public"."requests"("org_id","id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "request_recipients" ADD CONSTRAINT "request_recipients_org_id_orgs_id_fk" FOREIGN KEY ("org_id") REFERENCES "public"."orgs"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "request_recipients" ADD CONSTRAINT "request_recipients_request_fk" FOREIGN KEY ("org_id","request_id") REFERENCES "public"."requests"("org_id","id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "request_recipients" ADD CONSTRAINT "request_recipients_user_fk" FOREIGN KEY ("org_id","client_user_id") REFERENCES "public"."client_users"("org_id","id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "request_templates" ADD CONSTRAINT "request_templates_org_id_orgs_id_fk" FOREIGN KEY ("org_id") REFERENCES "public"."orgs"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "requests" ADD CONSTRAINT "requests_org_id_orgs_id_fk" FOREIGN KEY ("org_id") REFERENCES "public"."orgs"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "requests" ADD CONSTRAINT "requests_client_fk" FOREIGN KEY ("org_id","client_id") REFERENCES "public"."clients"("org_id","id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "requests" ADD CONSTRAINT "requests_folder_fk" FOREIGN KEY ("org_id","folder_id") REFERENCES "public"."document_folders"("org_id","id") ON DELETE SET NULL ("folder_id") ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "requests" ADD CONSTRAINT "requests_created_by_fk" FOREIGN KEY ("org_id","created_by") REFERENCES "public"."members"("org_id","id") ON DELETE SET NULL ("created_by") ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "request_item_files_document_idx" ON "request_item_files" USING btree ("org_id","document_id");--> statement-breakpoint
CREATE INDEX "request_items_request_idx" ON "request_items" USING btree ("org_id","request_id","position");--> statement-breakpoint
CREATE INDEX "request_recipients_user_idx" ON "request_recipients" USING btree ("org_id","client_user_id");--> statement-breakpoint
CREATE INDEX "request_templates_name_idx" ON "request_templates" USING btree ("org_id",lower("name"));--> statement-breakpoint
CREATE INDEX "requests_org_created_idx" ON "requests" USING btree ("org_id","created_at","id");--> statement-breakpoint
CREATE INDEX "requests_client_idx" ON "requests" USING btree ("org_id","client_id","created_at");--> statement-breakpoint
CREATE INDEX "requests_open_due_idx" ON "requests" USING btree ("org_id","due_date","id") WHERE status in ('sent', 'in_progress', 'submitted', 'returned');