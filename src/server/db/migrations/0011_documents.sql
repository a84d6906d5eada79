CREATE TABLE "document_folders" (
	"id" uuid PRIMARY KEY NOT NULL,
	"org_id" uuid NOT NULL,
	"client_id" uuid,
	"parent_id" uuid,
	"name" text NOT NULL,
	"visible_to_portal" boolean DEFAULT false NOT NULL,
	"deleted_at" timestamp with time zone,
	"created_by_member_id" uuid,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "document_folders_org_id_id_key" UNIQUE("org_id","id")
);
--> statement-breakpoint
CREATE TABLE "document_versions" (
	"id" uuid PRIMARY KEY NOT NULL,
	"org_id" uuid NOT NULL,
	"document_id" uuid NOT NULL,
	"version" integer NOT NULL,
	"size" bigint NOT NULL,
	"content_type" text NOT NULL,
	"checksum_sha256" text NOT NULL,
	"storage_key" text NOT NULL,
	"uploaded_by_member_id" uuid,
	"uploaded_by_client_user_id" uuid,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "document_versions_org_id_id_key" UNIQUE("org_id","id"),
	CONSTRAINT "document_versions_document_version_key" UNIQUE("org_id","document_id","version")
);
--> statement-breakpoint
CREATE TABLE "documents" (
	"id" uuid PRIMARY KEY NOT NULL,
	"org_id" uuid NOT NULL,
	"folder_id" uuid NOT NULL,
	"client_id" uuid,
	"name" text NOT NULL,
	"current_version_id" uuid,
	"current_version" integer DEFAULT 1 NOT NULL,
	"size" bigint DEFAULT 0 NOT NULL,
	"content_type" text DEFAULT 'application/octet-stream' NOT NULL,
	"visible_to_portal" boolean DEFAULT false NOT NULL,
	"deleted_at" timestamp with time zone,
	"uploaded_by_member_id" uuid,
	"uploaded_by_client_user_id" uuid,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "documents_org_id_id_key" UNIQUE("org_id","id")
);
--> statement-breakpoint
ALTER TABLE "document_folders" ADD CONSTRAINT "document_folders_org_id_orgs_id_fk" FOREIGN KEY ("org_id") REFERENCES "public"."orgs"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "document_folders" ADD CONSTRAINT "document_folders_client_fk" FOREIGN KEY ("org_id","client_id") REFERENCES "public"."clients"("org_id","id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "document_folders" ADD CONSTRAINT "document_folders_parent_fk" FOREIGN KEY ("org_id","parent_id") REFERENCES "public"."document_folders"("org_id","id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "document_versions" ADD CONSTRAINT "document_versions_org_id_orgs_id_fk" FOREIGN KEY ("org_id") REFERENCES "public"."orgs"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "document_versions" ADD CONSTRAINT "document_versions_document_fk" FOREIGN KEY ("org_id","document_id") REFERENCES "public"."documents"("org_id","id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "documents" ADD CONSTRAINT "documents_org_id_orgs_id_fk" FOREIGN KEY ("org_id") REFERENCES "public"."orgs"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "documents" ADD CONSTRAINT "documents_folder_fk" FOREIGN KEY ("org_id","folder_id") REFERENCES "public"."document_folders"("org_id","id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "documents" ADD CONSTRAINT "documents_client_fk" FOREIGN KEY ("org_id","client_id") REFERENCES "public"."clients"("org_id","id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "document_folders_root_key" ON "document_folders" USING btree ("org_id",coalesce("client_id", '00000000-0000-0000-0000-000000000000'::uuid)) WHERE parent_id is null;--> statement-breakpoint
CREATE UNIQUE INDEX "document_folders_sibling_name_key" ON "document_folders" USING btree ("org_id","parent_id",lower("name")) WHERE deleted_at is null and parent_id is not null;--> statement-breakpoint
CREATE INDEX "document_folders_children_idx" ON "document_folders" USING btree ("org_id","parent_id","name") WHERE deleted_at is null;--> statement-breakpoint
CREATE INDEX "document_folders_trash_idx" ON "document_folders" USING btree ("org_id","client_id","deleted_at");--> statement-breakpoint
CREATE INDEX "documents_folder_name_idx" ON "documents" USING btree ("org_id","folder_id","name","id") WHERE deleted_at is null;--> statement-breakpoint
CREATE INDEX "documents_folder_updated_idx" ON "documents" USING btree ("org_id","folder_id","updated_at","id") WHERE deleted_at is null;--> statement-breakpoint
CREATE INDEX "documents_folder_size_idx" ON "documents" USING btree ("org_id","folder_id","size","id") WHERE deleted_at is null;--> statement-breakpoint
CREATE INDEX "documents_trash_idx" ON "documents" USING btree ("org_id","client_id","deleted_at");--> statement-breakpoint
CREATE UNIQUE INDEX "documents_folder_live_name_key" ON "documents" USING btree ("org_id","folder_id",lower("name")) WHERE deleted_at is null;--> statement-breakpoint
CREATE INDEX "documents_name_trgm_idx" ON "documents" USING gin (lower("name") gin_trgm_ops);