CREATE TABLE "client_registrations" (
	"org_id" uuid NOT NULL,
	"client_id" uuid NOT NULL,
	"gstin" text,
	"gst_state" text,
	"gst_scheme" text,
	"turnover_band" text,
	"pan" text,
	"tan" text,
	"cin" text,
	"llpin" text,
	"tax_audit" boolean DEFAULT false NOT NULL,
	"transfer_pricing" boolean DEFAULT false NOT NULL,
	"collects_tcs" boolean DEFAULT false NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "client_registrations_pkey" PRIMARY KEY("org_id","client_id")
);
--> statement-breakpoint
CREATE TABLE "filing_extensions" (
	"id" uuid PRIMARY KEY NOT NULL,
	"org_id" uuid NOT NULL,
	"filing_code" text NOT NULL,
	"period_key" text NOT NULL,
	"state_code" text,
	"due_date" date NOT NULL,
	"note" text,
	"created_by" uuid,
	"applied_at" timestamp with time zone,
	"projects_moved" integer,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "filing_extensions_org_id_id_key" UNIQUE("org_id","id")
);
--> statement-breakpoint
ALTER TABLE "services" ADD COLUMN "statutory_filing_code" text;--> statement-breakpoint
ALTER TABLE "client_registrations" ADD CONSTRAINT "client_registrations_org_id_orgs_id_fk" FOREIGN KEY ("org_id") REFERENCES "public"."orgs"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "client_registrations" ADD CONSTRAINT "client_registrations_client_fk" FOREIGN KEY ("org_id","client_id") REFERENCES "public"."clients"("org_id","id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "filing_extensions" ADD CONSTRAINT "filing_extensions_org_id_orgs_id_fk" FOREIGN KEY ("org_id") REFERENCES "public"."orgs"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "filing_extensions" ADD CONSTRAINT "filing_extensions_member_fk" FOREIGN KEY ("org_id","created_by") REFERENCES "public"."members"("org_id","id") ON DELETE SET NULL ("created_by") ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "client_registrations_gstin_idx" ON "client_registrations" USING btree ("org_id","gstin") WHERE gstin is not null;--> statement-breakpoint
CREATE INDEX "filing_extensions_org_idx" ON "filing_extensions" USING btree ("org_id","filing_code","period_key");