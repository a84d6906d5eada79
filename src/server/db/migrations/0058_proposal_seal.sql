CREATE TABLE "firm_signing_certs" (
	"org_id" uuid PRIMARY KEY NOT NULL,
	"source" text NOT NULL,
	"cert_pem" text NOT NULL,
	"chain_pem" text DEFAULT '' NOT NULL,
	"key_sealed" text NOT NULL,
	"subject" text NOT NULL,
	"not_after" timestamp with time zone NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "proposals" ADD COLUMN "document_id" uuid;--> statement-breakpoint
ALTER TABLE "proposals" ADD COLUMN "content_sha256" text;--> statement-breakpoint
ALTER TABLE "firm_signing_certs" ADD CONSTRAINT "firm_signing_certs_org_id_orgs_id_fk" FOREIGN KEY ("org_id") REFERENCES "public"."orgs"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "proposals" ADD CONSTRAINT "proposals_document_fk" FOREIGN KEY ("org_id","document_id") REFERENCES "public"."documents"("org_id","id") ON DELETE SET NULL ("document_id") ON UPDATE no action;