CREATE TABLE "allocations" (
	"id" uuid PRIMARY KEY NOT NULL,
	"org_id" uuid NOT NULL,
	"client_id" uuid NOT NULL,
	"invoice_id" uuid NOT NULL,
	"payment_id" uuid,
	"credit_note_id" uuid,
	"amount" bigint NOT NULL,
	"allocated_on" date NOT NULL,
	"reversed_at" timestamp with time zone,
	"created_by" uuid,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "allocations_org_id_id_key" UNIQUE("org_id","id")
);
--> statement-breakpoint
CREATE TABLE "billing_settings" (
	"org_id" uuid PRIMARY KEY NOT NULL,
	"tax_regime" text DEFAULT 'none' NOT NULL,
	"gst_state" text,
	"default_tax_rate_bp" integer DEFAULT 0 NOT NULL,
	"round_totals" boolean DEFAULT false NOT NULL,
	"invoice_prefix" text DEFAULT 'INV' NOT NULL,
	"credit_note_prefix" text DEFAULT 'CN' NOT NULL,
	"seq_digits" smallint DEFAULT 4 NOT NULL,
	"due_days" smallint DEFAULT 15 NOT NULL,
	"terms" text DEFAULT '' NOT NULL,
	"bank_details" text DEFAULT '' NOT NULL,
	"upi_vpa" text,
	"upi_payee" text,
	"recurring_mode" text DEFAULT 'draft' NOT NULL,
	"reminders_enabled" boolean DEFAULT false NOT NULL,
	"remind_before_days" smallint,
	"remind_on_due" boolean DEFAULT true NOT NULL,
	"remind_every_days" smallint,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "client_billing" (
	"org_id" uuid NOT NULL,
	"client_id" uuid NOT NULL,
	"emails" text[] DEFAULT '{}'::text[] NOT NULL,
	"reminders_paused" boolean DEFAULT false NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "client_billing_org_id_client_id_pk" PRIMARY KEY("org_id","client_id")
);
--> statement-breakpoint
CREATE TABLE "disbursements" (
	"id" uuid PRIMARY KEY NOT NULL,
	"org_id" uuid NOT NULL,
	"client_id" uuid NOT NULL,
	"project_id" uuid,
	"kind" text DEFAULT 'other' NOT NULL,
	"spent_on" date NOT NULL,
	"description" text NOT NULL,
	"amount" bigint NOT NULL,
	"receipt_document_id" uuid,
	"invoice_line_id" uuid,
	"created_by" uuid,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "disbursements_org_id_id_key" UNIQUE("org_id","id")
);
--> statement-breakpoint
CREATE TABLE "invoice_counters" (
	"org_id" uuid NOT NULL,
	"series" text NOT NULL,
	"fiscal_year" text NOT NULL,
	"last_seq" integer NOT NULL,
	CONSTRAINT "invoice_counters_org_id_series_fiscal_year_pk" PRIMARY KEY("org_id","series","fiscal_year")
);
--> statement-breakpoint
CREATE TABLE "invoice_lines" (
	"id" uuid PRIMARY KEY NOT NULL,
	"org_id" uuid NOT NULL,
	"invoice_id" uuid NOT NULL,
	"position" smallint NOT NULL,
	"kind" text DEFAULT 'custom' NOT NULL,
	"description" text NOT NULL,
	"service_id" uuid,
	"project_id" uuid,
	"engagement_id" uuid,
	"period_start" date,
	"tax_code" text DEFAULT '' NOT NULL,
	"quantity_milli" bigint NOT NULL,
	"rate" bigint NOT NULL,
	"discount" bigint DEFAULT 0 NOT NULL,
	"amount" bigint NOT NULL,
	"standard_value" bigint DEFAULT 0 NOT NULL,
	"tax_rate_bp" integer DEFAULT 0 NOT NULL,
	"cgst" bigint DEFAULT 0 NOT NULL,
	"sgst" bigint DEFAULT 0 NOT NULL,
	"igst" bigint DEFAULT 0 NOT NULL,
	"other_tax" bigint DEFAULT 0 NOT NULL,
	"released" boolean DEFAULT false NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "invoice_lines_org_id_id_key" UNIQUE("org_id","id")
);
--> statement-breakpoint
CREATE TABLE "invoice_reminder_steps" (
	"org_id" uuid NOT NULL,
	"invoice_id" uuid NOT NULL,
	"step" text NOT NULL,
	"sent_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "invoice_reminder_steps_org_id_invoice_id_step_pk" PRIMARY KEY("org_id","invoice_id","step")
);
--> statement-breakpoint
CREATE TABLE "invoices" (
	"id" uuid PRIMARY KEY NOT NULL,
	"org_id" uuid NOT NULL,
	"client_id" uuid NOT NULL,
	"kind" text DEFAULT 'invoice' NOT NULL,
	"status" text DEFAULT 'draft' NOT NULL,
	"series" text,
	"fiscal_year" text,
	"seq" integer,
	"number" text,
	"issue_date" date,
	"due_date" date,
	"currency" text NOT NULL,
	"tax_regime" text DEFAULT 'none' NOT NULL,
	"place_of_supply" text,
	"zero_rated" boolean DEFAULT false NOT NULL,
	"subtotal" bigint DEFAULT 0 NOT NULL,
	"tax_total" bigint DEFAULT 0 NOT NULL,
	"round_off" bigint DEFAULT 0 NOT NULL,
	"total" bigint DEFAULT 0 NOT NULL,
	"amount_paid" bigint DEFAULT 0 NOT NULL,
	"balance" bigint DEFAULT 0 NOT NULL,
	"bill_to" jsonb,
	"notes" text DEFAULT '' NOT NULL,
	"terms" text DEFAULT '' NOT NULL,
	"credit_for_id" uuid,
	"recurring" boolean DEFAULT false NOT NULL,
	"sent_at" timestamp with time zone,
	"issued_at" timestamp with time zone,
	"issued_by" uuid,
	"voided_at" timestamp with time zone,
	"void_reason" text,
	"created_by" uuid,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "invoices_org_id_id_key" UNIQUE("org_id","id")
);
--> statement-breakpoint
CREATE TABLE "payments" (
	"id" uuid PRIMARY KEY NOT NULL,
	"org_id" uuid NOT NULL,
	"client_id" uuid NOT NULL,
	"kind" text DEFAULT 'receipt' NOT NULL,
	"received_on" date NOT NULL,
	"method" text NOT NULL,
	"reference" text DEFAULT '' NOT NULL,
	"currency" text NOT NULL,
	"amount" bigint NOT NULL,
	"tds_amount" bigint DEFAULT 0 NOT NULL,
	"tds_section" text,
	"tds_certificate_received" boolean DEFAULT false NOT NULL,
	"bank_charges" bigint DEFAULT 0 NOT NULL,
	"notes" text DEFAULT '' NOT NULL,
	"gateway" text,
	"gateway_ref" text,
	"reversed_at" timestamp with time zone,
	"reversed_by" uuid,
	"reverse_reason" text,
	"created_by" uuid,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "payments_org_id_id_key" UNIQUE("org_id","id")
);
--> statement-breakpoint
ALTER TABLE "client_services" ADD COLUMN "billing_mode" text DEFAULT 'fixed' NOT NULL;--> statement-breakpoint
ALTER TABLE "client_services" ADD COLUMN "fee_trigger" text DEFAULT 'manual' NOT NULL;--> statement-breakpoint
ALTER TABLE "client_services" ADD COLUMN "bill_from" date;--> statement-breakpoint
ALTER TABLE "services" ADD COLUMN "billing_mode" text DEFAULT 'fixed' NOT NULL;--> statement-breakpoint
ALTER TABLE "services" ADD COLUMN "fee_trigger" text DEFAULT 'manual' NOT NULL;--> statement-breakpoint
ALTER TABLE "services" ADD COLUMN "tax_code" text DEFAULT '' NOT NULL;--> statement-breakpoint
ALTER TABLE "services" ADD COLUMN "tax_rate_bp" integer;--> statement-breakpoint
ALTER TABLE "timesheet_entries" ADD COLUMN "invoice_line_id" uuid;--> statement-breakpoint
ALTER TABLE "timesheet_entries" ADD COLUMN "billed_amount" bigint;--> statement-breakpoint
ALTER TABLE "allocations" ADD CONSTRAINT "allocations_org_id_orgs_id_fk" FOREIGN KEY ("org_id") REFERENCES "public"."orgs"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "allocations" ADD CONSTRAINT "allocations_client_fk" FOREIGN KEY ("org_id","client_id") REFERENCES "public"."clients"("org_id","id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "allocations" ADD CONSTRAINT "allocations_invoice_fk" FOREIGN KEY ("org_id","invoice_id") REFERENCES "public"."invoices"("org_id","id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "allocations" ADD CONSTRAINT "allocations_payment_fk" FOREIGN KEY ("org_id","payment_id") REFERENCES "public"."payments"("org_id","id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "allocations" ADD CONSTRAINT "allocations_credit_note_fk" FOREIGN KEY ("org_id","credit_note_id") REFERENCES "public"."invoices"("org_id","id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "allocations" ADD CONSTRAINT "allocations_created_by_fk" FOREIGN KEY ("org_id","created_by") REFERENCES "public"."members"("org_id","id") ON DELETE SET NULL ("created_by") ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "billing_settings" ADD CONSTRAINT "billing_settings_org_id_orgs_id_fk" FOREIGN KEY ("org_id") REFERENCES "public"."orgs"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "client_billing" ADD CONSTRAINT "client_billing_org_id_orgs_id_fk" FOREIGN KEY ("org_id") REFERENCES "public"."orgs"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "client_billing" ADD CONSTRAINT "client_billing_client_fk" FOREIGN KEY ("org_id","client_id") REFERENCES "public"."clients"("org_id","id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "disbursements" ADD CONSTRAINT "disbursements_org_id_orgs_id_fk" FOREIGN KEY ("org_id") REFERENCES "public"."orgs"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "disbursements" ADD CONSTRAINT "disbursements_client_fk" FOREIGN KEY ("org_id","client_id") REFERENCES "public"."clients"("org_id","id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "disbursements" ADD CONSTRAINT "disbursements_project_fk" FOREIGN KEY ("org_id","project_id") REFERENCES "public"."projects"("org_id","id") ON DELETE SET NULL ("project_id") ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "disbursements" ADD CONSTRAINT "disbursements_receipt_fk" FOREIGN KEY ("org_id","receipt_document_id") REFERENCES "public"."documents"("org_id","id") ON DELETE SET NULL ("receipt_document_id") ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "disbursements" ADD CONSTRAINT "disbursements_line_fk" FOREIGN KEY ("org_id","invoice_line_id") REFERENCES "public"."invoice_lines"("org_id","id") ON DELETE SET NULL ("invoice_line_id") ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "disbursements" ADD CONSTRAINT "disbursements_created_by_fk" FOREIGN KEY ("org_id","created_by") REFERENCES "public"."members"("org_id","id") ON DELETE SET NULL ("created_by") ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "invoice_counters" ADD CONSTRAINT "invoice_counters_org_id_orgs_id_fk" FOREIGN KEY ("org_id") REFERENCES "public"."orgs"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "invoice_lines" ADD CONSTRAINT "invoice_lines_org_id_orgs_id_fk" FOREIGN KEY ("org_id") REFERENCES "public"."orgs"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "invoice_lines" ADD CONSTRAINT "invoice_lines_invoice_fk" FOREIGN KEY ("org_id","invoice_id") REFERENCES "public"."invoices"("org_id","id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "invoice_lines" ADD CONSTRAINT "invoice_lines_service_fk" FOREIGN KEY ("org_id","service_id") REFERENCES "public"."services"("org_id","id") ON DELETE SET NULL ("service_id") ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "invoice_lines" ADD CONSTRAINT "invoice_lines_project_fk" FOREIGN KEY ("org_id","project_id") REFERENCES "public"."projects"("org_id","id") ON DELETE SET NULL ("project_id") ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "invoice_lines" ADD CONSTRAINT "invoice_lines_engagement_fk" FOREIGN KEY ("org_id","engagement_id") REFERENCES "public"."client_services"("org_id","id") ON DELETE SET NULL ("engagement_id") ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "invoice_reminder_steps" ADD CONSTRAINT "invoice_reminder_steps_org_id_orgs_id_fk" FOREIGN KEY ("org_id") REFERENCES "public"."orgs"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "invoice_reminder_steps" ADD CONSTRAINT "invoice_reminder_steps_invoice_fk" FOREIGN KEY ("org_id","invoice_id") REFERENCES "public"."invoices"("org_id","id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "invoices" ADD CONSTRAINT "invoices_org_id_orgs_id_fk" FOREIGN KEY ("org_id") REFERENCES "public"."orgs"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "invoices" ADD CONSTRAINT "invoices_client_fk" FOREIGN KEY ("org_id","client_id") REFERENCES "public"."clients"("org_id","id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "invoices" ADD CONSTRAINT "invoices_credit_for_fk" FOREIGN KEY ("org_id","credit_for_id") REFERENCES "public"."invoices"("org_id","id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "invoices" ADD CONSTRAINT "invoices_issued_by_fk" FOREIGN KEY ("org_id","issued_by") REFERENCES "public"."members"("org_id","id") ON DELETE SET NULL ("issued_by") ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "invoices" ADD CONSTRAINT "invoices_created_by_fk" FOREIGN KEY ("org_id","created_by") REFERENCES "public"."members"("org_id","id") ON DELETE SET NULL ("created_by") ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "payments" ADD CONSTRAINT "payments_org_id_orgs_id_fk" FOREIGN KEY ("org_id") REFERENCES "public"."orgs"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "payments" ADD CONSTRAINT "payments_client_fk" FOREIGN KEY ("org_id","client_id") REFERENCES "public"."clients"("org_id","id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "payments" ADD CONSTRAINT "payments_reversed_by_fk" FOREIGN KEY ("org_id","reversed_by") REFERENCES "public"."members"("org_id","id") ON DELETE SET NULL ("reversed_by") ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "payments" ADD CONSTRAINT "payments_created_by_fk" FOREIGN KEY ("org_id","created_by") REFERENCES "public"."members"("org_id","id") ON DELETE SET NULL ("created_by") ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "allocations_invoice_idx" ON "allocations" USING btree ("org_id","invoice_id");--> statement-breakpoint
CREATE INDEX "allocations_payment_idx" ON "allocations" USING btree ("org_id","payment_id") WHERE payment_id is not null;--> statement-breakpoint
CREATE INDEX "allocations_credit_note_idx" ON "allocations" USING btree ("org_id","credit_note_id") WHERE credit_note_id is not null;--> statement-breakpoint
CREATE INDEX "disbursements_unbilled_idx" ON "disbursements" USING btree ("org_id","client_id","spent_on") WHERE invoice_line_id is null;--> statement-breakpoint
CREATE INDEX "disbursements_line_idx" ON "disbursements" USING btree ("org_id","invoice_line_id") WHERE invoice_line_id is not null;--> statement-breakpoint
CREATE INDEX "invoice_lines_invoice_idx" ON "invoice_lines" USING btree ("org_id","invoice_id","position");--> statement-breakpoint
CREATE UNIQUE INDEX "invoice_lines_fee_period_key" ON "invoice_lines" USING btree ("org_id","engagement_id","period_start") WHERE kind = 'fee' and not released;--> statement-breakpoint
CREATE INDEX "invoice_lines_service_idx" ON "invoice_lines" USING btree ("org_id","service_id") WHERE service_id is not null;--> statement-breakpoint
CREATE UNIQUE INDEX "invoices_number_key" ON "invoices" USING btree ("org_id","series","fiscal_year","seq") WHERE seq is not null;--> statement-breakpoint
CREATE INDEX "invoices_client_idx" ON "invoices" USING btree ("org_id","client_id","issue_date");--> statement-breakpoint
CREATE INDEX "invoices_org_created_idx" ON "invoices" USING btree ("org_id","created_at","id");--> statement-breakpoint
CREATE INDEX "invoices_org_issue_idx" ON "invoices" USING btree ("org_id","issue_date","id");--> statement-breakpoint
CREATE INDEX "invoices_open_idx" ON "invoices" USING btree ("org_id","due_date","client_id") WHERE status in ('issued', 'sent', 'partly_paid');--> statement-breakpoint
CREATE INDEX "payments_client_idx" ON "payments" USING btree ("org_id","client_id","received_on");--> statement-breakpoint
CREATE INDEX "payments_org_received_idx" ON "payments" USING btree ("org_id","received_on","id");--> statement-breakpoint
ALTER TABLE "timesheet_entries" ADD CONSTRAINT "timesheet_entries_invoice_line_fk" FOREIGN KEY ("org_id","invoice_line_id") REFERENCES "public"."invoice_lines"("org_id","id") ON DELETE SET NULL ("invoice_line_id") ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "timesheet_entries_wip_idx" ON "timesheet_entries" USING btree ("org_id","client_id","date") WHERE billable and status = 'approved' and invoice_line_id is null and client_id is not null;--> statement-breakpoint
CREATE INDEX "timesheet_entries_invoice_line_idx" ON "timesheet_entries" USING btree ("org_id","invoice_line_id") WHERE invoice_line_id is not null;--> statement-breakpoint
-- Billing's rights reach the seeded roles that hold them by definition (Owner and Admin), as 0031
-- did for broadcasts.send. Engagements made before billing bill their fixed fees from this month on
-- (not years of past periods); those without a fee are billed by the hour.
UPDATE "roles" AS r
SET "permissions" = r."permissions" || ARRAY['billing.view', 'billing.manage', 'billing.collect']::text[],
    "updated_at" = now()
WHERE r."name" IN ('Owner', 'Admin') AND NOT ('billing.view' = ANY (r."permissions"));--> statement-breakpoint
UPDATE "client_services" SET "bill_from" = GREATEST("start_date", date_trunc('month', CURRENT_DATE)::date), "billing_mode" = CASE WHEN "fee" IS NULL THEN 'hourly' ELSE 'fixed' END;--> statement-breakpoint
UPDATE "services" SET "billing_mode" = CASE WHEN "default_fee" IS NULL THEN 'hourly' ELSE 'fixed' END;
