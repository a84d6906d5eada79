CREATE TABLE "idp_recovery_codes" (
	"user_id" uuid NOT NULL,
	"code_hash" text NOT NULL,
	"used_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "idp_recovery_codes_user_id_code_hash_pk" PRIMARY KEY("user_id","code_hash")
);
--> statement-breakpoint
ALTER TABLE "members" ADD COLUMN "mfa_required_since" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "orgs" ADD COLUMN "mfa_policy" text DEFAULT 'off' NOT NULL;--> statement-breakpoint
ALTER TABLE "orgs" ADD COLUMN "mfa_role_ids" uuid[] DEFAULT '{}'::uuid[] NOT NULL;--> statement-breakpoint
ALTER TABLE "orgs" ADD COLUMN "mfa_grace_days" smallint DEFAULT 7 NOT NULL;--> statement-breakpoint
ALTER TABLE "idp_recovery_codes" ADD CONSTRAINT "idp_recovery_codes_user_id_idp_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."idp_users"("id") ON DELETE cascade ON UPDATE no action;