DROP INDEX "message_threads_assignee_idx";--> statement-breakpoint
DROP INDEX "notifications_member_idx";--> statement-breakpoint
DROP INDEX "system_log_org_at_idx";--> statement-breakpoint
DROP INDEX "system_log_org_actor_at_idx";--> statement-breakpoint
CREATE INDEX "message_threads_assignee_idx" ON "message_threads" USING btree ("org_id","assignee_id","last_message_at" DESC NULLS FIRST) WHERE assignee_id is not null;--> statement-breakpoint
CREATE INDEX "notifications_member_idx" ON "notifications" USING btree ("org_id","member_id","created_at" DESC NULLS FIRST);--> statement-breakpoint
CREATE INDEX "system_log_org_at_idx" ON "system_log" USING btree ("org_id","at" DESC NULLS FIRST,"id" DESC NULLS FIRST);--> statement-breakpoint
CREATE INDEX "system_log_org_actor_at_idx" ON "system_log" USING btree ("org_id","actor_member_id","at" DESC NULLS FIRST);