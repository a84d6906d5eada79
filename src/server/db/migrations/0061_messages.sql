CREATE TABLE "message_attachments" (
	"org_id" uuid NOT NULL,
	"document_id" uuid NOT NULL,
	"thread_id" uuid NOT NULL,
	"message_id" uuid,
	"uploaded_by_member_id" uuid,
	"uploaded_by_client_user_id" uuid,
	"name" text NOT NULL,
	"size" integer NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "message_attachments_org_id_document_id_pk" PRIMARY KEY("org_id","document_id")
);
--> statement-breakpoint
CREATE TABLE "message_thread_client_users" (
	"org_id" uuid NOT NULL,
	"thread_id" uuid NOT NULL,
	"client_user_id" uuid NOT NULL,
	"read_seq" integer DEFAULT 0 NOT NULL,
	"mailed_seq" integer DEFAULT 0 NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "message_thread_client_users_org_id_thread_id_client_user_id_pk" PRIMARY KEY("org_id","thread_id","client_user_id")
);
--> statement-breakpoint
CREATE TABLE "message_thread_members" (
	"org_id" uuid NOT NULL,
	"thread_id" uuid NOT NULL,
	"member_id" uuid NOT NULL,
	"participant" boolean DEFAULT false NOT NULL,
	"read_seq" integer DEFAULT 0 NOT NULL,
	"mailed_seq" integer DEFAULT 0 NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "message_thread_members_org_id_thread_id_member_id_pk" PRIMARY KEY("org_id","thread_id","member_id")
);
--> statement-breakpoint
CREATE TABLE "message_threads" (
	"id" uuid PRIMARY KEY NOT NULL,
	"org_id" uuid NOT NULL,
	"client_id" uuid NOT NULL,
	"subject" text NOT NULL,
	"status" text DEFAULT 'open' NOT NULL,
	"assignee_id" uuid,
	"last_seq" integer DEFAULT 0 NOT NULL,
	"last_public_seq" integer DEFAULT 0 NOT NULL,
	"last_message_at" timestamp with time zone DEFAULT now() NOT NULL,
	"last_public_at" timestamp with time zone,
	"last_preview" text DEFAULT '' NOT NULL,
	"last_public_preview" text DEFAULT '' NOT NULL,
	"created_by_member_id" uuid,
	"created_by_client_user_id" uuid,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "message_threads_org_id_id_key" UNIQUE("org_id","id")
);
--> statement-breakpoint
CREATE TABLE "messages" (
	"id" uuid PRIMARY KEY NOT NULL,
	"org_id" uuid NOT NULL,
	"thread_id" uuid NOT NULL,
	"seq" integer NOT NULL,
	"author_member_id" uuid,
	"author_client_user_id" uuid,
	"body" text NOT NULL,
	"internal" boolean DEFAULT false NOT NULL,
	"mentions" uuid[] DEFAULT '{}'::uuid[] NOT NULL,
	"source" text DEFAULT 'app' NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "messages_org_id_id_key" UNIQUE("org_id","id"),
	CONSTRAINT "messages_thread_seq_key" UNIQUE("org_id","thread_id","seq")
);
--> statement-breakpoint
ALTER TABLE "message_attachments" ADD CONSTRAINT "message_attachments_org_id_orgs_id_fk" FOREIGN KEY ("org_id") REFERENCES "public"."orgs"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "message_attachments" ADD CONSTRAINT "message_attachments_document_fk" FOREIGN KEY ("org_id","document_id") REFERENCES "public"."documents"("org_id","id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "message_attachments" ADD CONSTRAINT "message_attachments_thread_fk" FOREIGN KEY ("org_id","thread_id") REFERENCES "public"."message_threads"("org_id","id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "message_attachments" ADD CONSTRAINT "message_attachments_message_fk" FOREIGN KEY ("org_id","message_id") REFERENCES "public"."messages"("org_id","id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "message_attachments" ADD CONSTRAINT "message_attachments_member_fk" FOREIGN KEY ("org_id","uploaded_by_member_id") REFERENCES "public"."members"("org_id","id") ON DELETE SET NULL ("uploaded_by_member_id") ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "message_attachments" ADD CONSTRAINT "message_attachments_client_user_fk" FOREIGN KEY ("org_id","uploaded_by_client_user_id") REFERENCES "public"."client_users"("org_id","id") ON DELETE SET NULL ("uploaded_by_client_user_id") ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "message_thread_client_users" ADD CONSTRAINT "message_thread_client_users_org_id_orgs_id_fk" FOREIGN KEY ("org_id") REFERENCES "public"."orgs"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "message_thread_client_users" ADD CONSTRAINT "message_thread_client_users_thread_fk" FOREIGN KEY ("org_id","thread_id") REFERENCES "public"."message_threads"("org_id","id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "message_thread_client_users" ADD CONSTRAINT "message_thread_client_users_user_fk" FOREIGN KEY ("org_id","client_user_id") REFERENCES "public"."client_users"("org_id","id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "message_thread_members" ADD CONSTRAINT "message_thread_members_org_id_orgs_id_fk" FOREIGN KEY ("org_id") REFERENCES "public"."orgs"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "message_thread_members" ADD CONSTRAINT "message_thread_members_thread_fk" FOREIGN KEY ("org_id","thread_id") REFERENCES "public"."message_threads"("org_id","id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "message_thread_members" ADD CONSTRAINT "message_thread_members_member_fk" FOREIGN KEY ("org_id","member_id") REFERENCES "public"."members"("org_id","id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "message_threads" ADD CONSTRAINT "message_threads_org_id_orgs_id_fk" FOREIGN KEY ("org_id") REFERENCES "public"."orgs"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "message_threads" ADD CONSTRAINT "message_threads_client_fk" FOREIGN KEY ("org_id","client_id") REFERENCES "public"."clients"("org_id","id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "message_threads" ADD CONSTRAINT "message_threads_assignee_fk" FOREIGN KEY ("org_id","assignee_id") REFERENCES "public"."members"("org_id","id") ON DELETE SET NULL ("assignee_id") ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "message_threads" ADD CONSTRAINT "message_threads_created_by_member_fk" FOREIGN KEY ("org_id","created_by_member_id") REFERENCES "public"."members"("org_id","id") ON DELETE SET NULL ("created_by_member_id") ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "message_threads" ADD CONSTRAINT "message_threads_created_by_client_user_fk" FOREIGN KEY ("org_id","created_by_client_user_id") REFERENCES "public"."client_users"("org_id","id") ON DELETE SET NULL ("created_by_client_user_id") ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "messages" ADD CONSTRAINT "messages_org_id_orgs_id_fk" FOREIGN KEY ("org_id") REFERENCES "public"."orgs"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "messages" ADD CONSTRAINT "messages_thread_fk" FOREIGN KEY ("org_id","thread_id") REFERENCES "public"."message_threads"("org_id","id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "messages" ADD CONSTRAINT "messages_author_member_fk" FOREIGN KEY ("org_id","author_member_id") REFERENCES "public"."members"("org_id","id") ON DELETE SET NULL ("author_member_id") ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "messages" ADD CONSTRAINT "messages_author_client_user_fk" FOREIGN KEY ("org_id","author_client_user_id") REFERENCES "public"."client_users"("org_id","id") ON DELETE SET NULL ("author_client_user_id") ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "message_attachments_message_idx" ON "message_attachments" USING btree ("org_id","message_id");--> statement-breakpoint
CREATE INDEX "message_thread_client_users_user_idx" ON "message_thread_client_users" USING btree ("org_id","client_user_id","thread_id");--> statement-breakpoint
CREATE INDEX "message_thread_members_member_idx" ON "message_thread_members" USING btree ("org_id","member_id","thread_id") WHERE participant;--> statement-breakpoint
CREATE INDEX "message_threads_inbox_idx" ON "message_threads" USING btree ("org_id","status","last_message_at" DESC NULLS LAST,"id");--> statement-breakpoint
CREATE INDEX "message_threads_client_idx" ON "message_threads" USING btree ("org_id","client_id","last_message_at" DESC NULLS LAST);--> statement-breakpoint
CREATE INDEX "message_threads_assignee_idx" ON "message_threads" USING btree ("org_id","assignee_id","last_message_at" DESC NULLS LAST) WHERE assignee_id is not null;
--> statement-breakpoint
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