CREATE TABLE "vault_entries" (
	"id" uuid PRIMARY KEY NOT NULL,
	"org_id" uuid NOT NULL,
	"client_id" uuid,
	"title" text NOT NULL,
	"url" text,
	"username" text,
	"password_ciphertext" "bytea" NOT NULL,
	"password_iv" "bytea" NOT NULL,
	"password_tag" "bytea" NOT NULL,
	"data_key_wrapped" "bytea" NOT NULL,
	"key_id" text NOT NULL,
	"notes" text,
	"tags" text[] DEFAULT '{}'::text[] NOT NULL,
	"password_changed_at" timestamp with time zone DEFAULT now() NOT NULL,
	"password_changed_by" uuid,
	"created_by" uuid,
	"search_text" text GENERATED ALWAYS AS (lower(title || ' ' || coalesce(username, '') || ' ' || coalesce(url, ''))) STORED,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "vault_entries_org_id_id_key" UNIQUE("org_id","id")
);
--> statement-breakpoint
ALTER TABLE "vault_entries" ADD CONSTRAINT "vault_entries_org_id_orgs_id_fk" FOREIGN KEY ("org_id") REFERENCES "public"."orgs"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "vault_entries" ADD CONSTRAINT "vault_entries_password_changed_by_members_id_fk" FOREIGN KEY ("password_changed_by") REFERENCES "public"."members"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "vault_entries" ADD CONSTRAINT "vault_entries_created_by_members_id_fk" FOREIGN KEY ("created_by") REFERENCES "public"."members"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "vault_entries" ADD CONSTRAINT "vault_entries_client_fk" FOREIGN KEY ("org_id","client_id") REFERENCES "public"."clients"("org_id","id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "vault_entries_org_title_idx" ON "vault_entries" USING btree ("org_id","title","id");--> statement-breakpoint
CREATE INDEX "vault_entries_org_client_title_idx" ON "vault_entries" USING btree ("org_id","client_id","title","id");--> statement-breakpoint
CREATE INDEX "vault_entries_search_trgm_idx" ON "vault_entries" USING gin ("search_text" gin_trgm_ops);--> statement-breakpoint
CREATE INDEX "vault_entries_tags_idx" ON "vault_entries" USING gin ("tags");--> statement-breakpoint
CREATE INDEX "vault_entries_key_idx" ON "vault_entries" USING btree ("key_id");