CREATE TABLE "firm_exports" (
	"id" uuid PRIMARY KEY NOT NULL,
	"org_id" uuid NOT NULL,
	"requested_by" uuid,
	"status" text DEFAULT 'queued' NOT NULL,
	"include_vault" boolean DEFAULT false NOT NULL,
	"passphrase_sealed" text,
	"step" text,
	"done" integer DEFAULT 0 NOT NULL,
	"total" integer DEFAULT 0 NOT NULL,
	"storage_key" text,
	"size" bigint,
	"error" text,
	"finished_at" timestamp with time zone,
	"expires_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "firm_exports_org_id_id_key" UNIQUE("org_id","id")
);
--> statement-breakpoint
ALTER TABLE "firm_exports" ADD CONSTRAINT "firm_exports_org_id_orgs_id_fk" FOREIGN KEY ("org_id") REFERENCES "public"."orgs"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "firm_exports" ADD CONSTRAINT "firm_exports_requested_by_fk" FOREIGN KEY ("org_id","requested_by") REFERENCES "public"."members"("org_id","id") ON DELETE SET NULL ("requested_by") ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "firm_exports_org_created_idx" ON "firm_exports" USING btree ("org_id","created_at");--> statement-breakpoint
CREATE INDEX "firm_exports_expires_idx" ON "firm_exports" USING btree ("expires_at");--> statement-breakpoint
CREATE INDEX "firm_exports_storage_key_idx" ON "firm_exports" USING btree ("storage_key");