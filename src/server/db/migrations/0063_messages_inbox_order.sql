DROP INDEX "message_threads_inbox_idx";--> statement-breakpoint
DROP INDEX "message_threads_client_idx";--> statement-breakpoint
CREATE INDEX "message_threads_inbox_v2_idx" ON "message_threads" USING btree ("org_id","status","last_message_at" DESC NULLS FIRST,"id" DESC NULLS FIRST,"assignee_id");--> statement-breakpoint
CREATE INDEX "message_threads_client_v2_idx" ON "message_threads" USING btree ("org_id","client_id","last_message_at" DESC NULLS FIRST,"id" DESC NULLS FIRST);