ALTER TABLE "proposal_templates" ADD COLUMN "follow_up" jsonb DEFAULT '{"billing":"none","retainer":null,"requestTemplateId":null,"requestDueDays":14}'::jsonb NOT NULL;--> statement-breakpoint
ALTER TABLE "proposals" ADD COLUMN "follow_up" jsonb DEFAULT '{"billing":"none","retainer":null,"requestTemplateId":null,"requestDueDays":14}'::jsonb NOT NULL;--> statement-breakpoint
ALTER TABLE "proposals" ADD COLUMN "invoice_id" uuid;--> statement-breakpoint
ALTER TABLE "proposals" ADD COLUMN "request_id" uuid;--> statement-breakpoint
ALTER TABLE "proposals" ADD COLUMN "followed_up_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "proposals" ADD CONSTRAINT "proposals_invoice_fk" FOREIGN KEY ("org_id","invoice_id") REFERENCES "public"."invoices"("org_id","id") ON DELETE SET NULL ("invoice_id") ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "proposals" ADD CONSTRAINT "proposals_request_fk" FOREIGN KEY ("org_id","request_id") REFERENCES "public"."requests"("org_id","id") ON DELETE SET NULL ("request_id") ON UPDATE no action;
--> statement-breakpoint
ALTER TABLE "proposals" ADD COLUMN "kind" text DEFAULT 'proposal' NOT NULL;--> statement-breakpoint
ALTER TABLE "proposals" ADD COLUMN "source_document_id" uuid;--> statement-breakpoint
ALTER TABLE "proposals" ADD COLUMN "source_version" integer;--> statement-breakpoint
ALTER TABLE "proposals" ADD CONSTRAINT "proposals_source_document_fk" FOREIGN KEY ("org_id","source_document_id") REFERENCES "public"."documents"("org_id","id") ON DELETE SET NULL ("source_document_id") ON UPDATE no action;