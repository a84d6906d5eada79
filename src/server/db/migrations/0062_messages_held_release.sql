ALTER TABLE "messages" ADD COLUMN "author_email" text;--> statement-breakpoint
ALTER TABLE "messages_held" ADD COLUMN "released_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "messages_held" ADD COLUMN "released_by" uuid;--> statement-breakpoint
ALTER TABLE "messages_held" ADD COLUMN "released_message_id" uuid;--> statement-breakpoint
ALTER TABLE "messages_held" ADD CONSTRAINT "messages_held_released_by_fk" FOREIGN KEY ("org_id","released_by") REFERENCES "public"."members"("org_id","id") ON DELETE SET NULL ("released_by") ON UPDATE no action;