CREATE TABLE "task_attachments" (
	"org_id" uuid NOT NULL,
	"task_id" uuid NOT NULL,
	"document_id" uuid NOT NULL,
	"attached_by_member_id" uuid,
	"attached_by_client_user_id" uuid,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "task_attachments_org_id_task_id_document_id_pk" PRIMARY KEY("org_id","task_id","document_id")
);
--> statement-breakpoint
CREATE TABLE "client_user_clients" (
	"org_id" uuid NOT NULL,
	"client_user_id" uuid NOT NULL,
	"client_id" uuid NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "client_user_clients_org_id_client_user_id_client_id_pk" PRIMARY KEY("org_id","client_user_id","client_id")
);
--> statement-breakpoint
CREATE TABLE "client_user_invites" (
	"id" uuid PRIMARY KEY NOT NULL,
	"org_id" uuid NOT NULL,
	"client_user_id" uuid NOT NULL,
	"client_id" uuid NOT NULL,
	"key_hash" text NOT NULL,
	"invited_by" uuid,
	"expires_at" timestamp with time zone NOT NULL,
	"last_sent_at" timestamp with time zone DEFAULT now() NOT NULL,
	"accepted_at" timestamp with time zone,
	"revoked_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "client_user_invites_org_id_id_key" UNIQUE("org_id","id"),
	CONSTRAINT "client_user_invites_key_hash_key" UNIQUE("key_hash")
);
--> statement-breakpoint
CREATE TABLE "client_users" (
	"id" uuid PRIMARY KEY NOT NULL,
	"org_id" uuid NOT NULL,
	"email" text NOT NULL,
	"name" text NOT NULL,
	"phone" text,
	"status" text DEFAULT 'invited' NOT NULL,
	"invited_by" uuid,
	"last_sign_in_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "client_users_org_id_id_key" UNIQUE("org_id","id"),
	CONSTRAINT "client_users_org_id_email_key" UNIQUE("org_id","email")
);
--> statement-breakpoint
CREATE TABLE "portal_codes" (
	"id" uuid PRIMARY KEY NOT NULL,
	"email" text NOT NULL,
	"code_hash" text NOT NULL,
	"attempts" integer DEFAULT 0 NOT NULL,
	"expires_at" timestamp with time zone NOT NULL,
	"consumed_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "portal_sessions" (
	"id" text PRIMARY KEY NOT NULL,
	"email" text NOT NULL,
	"ip" text,
	"user_agent" text,
	"expires_at" timestamp with time zone NOT NULL,
	"last_seen_at" timestamp with time zone DEFAULT now() NOT NULL,
	"revoked_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "task_attachments" ADD CONSTRAINT "task_attachments_org_id_orgs_id_fk" FOREIGN KEY ("org_id") REFERENCES "public"."orgs"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "task_attachments" ADD CONSTRAINT "task_attachments_task_fk" FOREIGN KEY ("org_id","task_id") REFERENCES "public"."tasks"("org_id","id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "task_attachments" ADD CONSTRAINT "task_attachments_document_fk" FOREIGN KEY ("org_id","document_id") REFERENCES "public"."documents"("org_id","id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "client_user_clients" ADD CONSTRAINT "client_user_clients_org_id_orgs_id_fk" FOREIGN KEY ("org_id") REFERENCES "public"."orgs"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "client_user_clients" ADD CONSTRAINT "client_user_clients_user_fk" FOREIGN KEY ("org_id","client_user_id") REFERENCES "public"."client_users"("org_id","id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "client_user_clients" ADD CONSTRAINT "client_user_clients_client_fk" FOREIGN KEY ("org_id","client_id") REFERENCES "public"."clients"("org_id","id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "client_user_invites" ADD CONSTRAINT "client_user_invites_org_id_orgs_id_fk" FOREIGN KEY ("org_id") REFERENCES "public"."orgs"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "client_user_invites" ADD CONSTRAINT "client_user_invites_user_fk" FOREIGN KEY ("org_id","client_user_id") REFERENCES "public"."client_users"("org_id","id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "client_user_invites" ADD CONSTRAINT "client_user_invites_client_fk" FOREIGN KEY ("org_id","client_id") REFERENCES "public"."clients"("org_id","id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "client_user_invites" ADD CONSTRAINT "client_user_invites_invited_by_fk" FOREIGN KEY ("org_id","invited_by") REFERENCES "public"."members"("org_id","id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "client_users" ADD CONSTRAINT "client_users_org_id_orgs_id_fk" FOREIGN KEY ("org_id") REFERENCES "public"."orgs"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "client_users" ADD CONSTRAINT "client_users_invited_by_fk" FOREIGN KEY ("org_id","invited_by") REFERENCES "public"."members"("org_id","id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "task_attachments_document_idx" ON "task_attachments" USING btree ("org_id","document_id");--> statement-breakpoint
CREATE INDEX "client_user_clients_client_idx" ON "client_user_clients" USING btree ("org_id","client_id");--> statement-breakpoint
CREATE UNIQUE INDEX "client_user_invites_open_idx" ON "client_user_invites" USING btree ("org_id","client_user_id","client_id") WHERE accepted_at is null and revoked_at is null;--> statement-breakpoint
CREATE INDEX "client_users_email_idx" ON "client_users" USING btree ("email");--> statement-breakpoint
CREATE INDEX "portal_codes_email_idx" ON "portal_codes" USING btree ("email","created_at");--> statement-breakpoint
CREATE INDEX "portal_sessions_email_idx" ON "portal_sessions" USING btree ("email");--> statement-breakpoint
CREATE INDEX "portal_sessions_expires_idx" ON "portal_sessions" USING btree ("expires_at");