ALTER TABLE "proposals" ADD COLUMN "kind" text DEFAULT 'proposal' NOT NULL;--> statement-breakpoint
ALTER TABLE "proposals" ADD COLUMN "source_document_id" uuid;--> statement-breakpoint
ALTER TABLE "proposals" ADD COLUMN "source_version" integer;--> statement-breakpoint
ALTER TABLE "proposals" ADD CONSTRAINT "proposals_source_document_fk" FOREIGN KEY ("org_id","source_document_id") REFERENCES "public"."documents"("org_id","id") ON DELETE SET NULL ("source_document_id") ON UPDATE no action;