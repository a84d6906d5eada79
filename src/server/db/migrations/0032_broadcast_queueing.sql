ALTER TABLE "broadcasts" ADD COLUMN "queueing" boolean DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE "broadcasts" ADD COLUMN "queued_through" uuid;