CREATE TABLE "message_mail_ids" (
	"org_id" uuid NOT NULL,
	"message_id_header" text NOT NULL,
	"thread_id" uuid NOT NULL,
	"direction" text NOT NULL,
	"seq" integer,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "message_mail_ids_org_id_message_id_header_pk" PRIMARY KEY("org_id","message_id_header")
);
--> statement-breakpoint
ALTER TABLE "message_mail_ids" ADD CONSTRAINT "message_mail_ids_org_id_orgs_id_fk" FOREIGN KEY ("org_id") REFERENCES "public"."orgs"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "message_mail_ids" ADD CONSTRAINT "message_mail_ids_thread_fk" FOREIGN KEY ("org_id","thread_id") REFERENCES "public"."message_threads"("org_id","id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "message_mail_ids_thread_idx" ON "message_mail_ids" USING btree ("org_id","thread_id");