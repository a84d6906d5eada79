ALTER TABLE "proposal_signers" ADD COLUMN "last_mailed_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "proposal_signers" ADD COLUMN "reminders_sent" integer DEFAULT 0 NOT NULL;