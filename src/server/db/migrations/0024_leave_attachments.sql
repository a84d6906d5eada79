CREATE TABLE "leave_attachments" (
	"id" uuid PRIMARY KEY NOT NULL,
	"org_id" uuid NOT NULL,
	"member_id" uuid NOT NULL,
	"request_id" uuid,
	"name" text NOT NULL,
	"size" bigint NOT NULL,
	"content_type" text NOT NULL,
	"checksum_sha256" text NOT NULL,
	"storage_key" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "leave_attachments_org_id_id_key" UNIQUE("org_id","id"),
	CONSTRAINT "leave_attachments_storage_key" UNIQUE("storage_key")
);
--> statement-breakpoint
ALTER TABLE "leave_types" ADD COLUMN "attachment_after_days" integer;--> statement-breakpoint
ALTER TABLE "leave_attachments" ADD CONSTRAINT "leave_attachments_org_id_orgs_id_fk" FOREIGN KEY ("org_id") REFERENCES "public"."orgs"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "leave_attachments" ADD CONSTRAINT "leave_attachments_member_fk" FOREIGN KEY ("org_id","member_id") REFERENCES "public"."members"("org_id","id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "leave_attachments" ADD CONSTRAINT "leave_attachments_request_fk" FOREIGN KEY ("org_id","request_id") REFERENCES "public"."leave_requests"("org_id","id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "leave_attachments_org_request_idx" ON "leave_attachments" USING btree ("org_id","request_id");--> statement-breakpoint
CREATE INDEX "leave_attachments_unlinked_idx" ON "leave_attachments" USING btree ("created_at") WHERE "leave_attachments"."request_id" is null;