ALTER TABLE "idp_challenges" ALTER COLUMN "user_id" DROP NOT NULL;--> statement-breakpoint
ALTER TABLE "idp_users" ADD COLUMN "totp_secret" text;--> statement-breakpoint
ALTER TABLE "idp_users" ADD COLUMN "totp_pending_secret" text;--> statement-breakpoint
ALTER TABLE "idp_users" ADD COLUMN "totp_last_step" integer;--> statement-breakpoint
ALTER TABLE "idp_users" ADD COLUMN "totp_device_name" text;--> statement-breakpoint
ALTER TABLE "idp_users" ADD COLUMN "totp_enabled" boolean DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE "idp_users" ADD COLUMN "mfa_preferred" text;