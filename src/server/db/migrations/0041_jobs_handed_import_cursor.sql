ALTER TABLE "broadcast_deliveries" ADD COLUMN "handed_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "client_imports" ADD COLUMN "cursor_row" integer DEFAULT 0 NOT NULL;