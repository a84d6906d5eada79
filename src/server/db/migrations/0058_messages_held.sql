CREATE TABLE "messages_held" (
	"id" uuid PRIMARY KEY NOT NULL,
	"org_id" uuid NOT NULL,
	"thread_id" uuid,
	"client_id" uuid,
	"from_address" text NOT NULL,
	"subject" text NOT NULL,
	"body" text NOT NULL,
	"reason" text NOT NULL,
	"attachment_names" text[] DEFAULT '{}'::text[] NOT NULL,
	"discarded_at" timestamp with time zone,
	"discarded_by" uuid,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "messages_held_org_id_id_key" UNIQUE("org_id","id")
);
--> statement-breakpoint
ALTER TABLE "messages_held" ADD CONSTRAINT "messages_held_org_id_orgs_id_fk" FOREIGN KEY ("org_id") REFERENCES "public"."orgs"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "messages_held" ADD CONSTRAINT "messages_held_thread_fk" FOREIGN KEY ("org_id","thread_id") REFERENCES "public"."message_threads"("org_id","id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "messages_held" ADD CONSTRAINT "messages_held_client_fk" FOREIGN KEY ("org_id","client_id") REFERENCES "public"."clients"("org_id","id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "messages_held" ADD CONSTRAINT "messages_held_discarded_by_fk" FOREIGN KEY ("org_id","discarded_by") REFERENCES "public"."members"("org_id","id") ON DELETE SET NULL ("discarded_by") ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "messages_held_open_idx" ON "messages_held" USING btree ("org_id","created_at") WHERE discarded_at is null;