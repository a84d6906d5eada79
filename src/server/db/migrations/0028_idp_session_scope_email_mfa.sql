ALTER TABLE "idp_sessions" ADD COLUMN "scope" text;--> statement-breakpoint
ALTER TABLE "idp_users" ADD COLUMN "email_mfa_enabled" boolean DEFAULT false NOT NULL;