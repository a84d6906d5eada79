CREATE TABLE "deployment_settings" (
	"name" text PRIMARY KEY NOT NULL,
	"value" text NOT NULL,
	"recorded_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "rate_limit_counters" (
	"key" text PRIMARY KEY NOT NULL,
	"count" integer NOT NULL,
	"window_ends_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
CREATE TABLE "server_instances" (
	"id" uuid PRIMARY KEY NOT NULL,
	"host" text NOT NULL,
	"pid" integer NOT NULL,
	"listen" text NOT NULL,
	"version" text NOT NULL,
	"storage_driver" text NOT NULL,
	"files_dir" text,
	"files_shared" boolean DEFAULT false NOT NULL,
	"jobs_enabled" boolean NOT NULL,
	"started_at" timestamp with time zone DEFAULT now() NOT NULL,
	"last_seen_at" timestamp with time zone DEFAULT now() NOT NULL,
	"stopped_at" timestamp with time zone
);
--> statement-breakpoint
CREATE INDEX "rate_limit_counters_window_idx" ON "rate_limit_counters" USING btree ("window_ends_at");--> statement-breakpoint
CREATE INDEX "server_instances_last_seen_idx" ON "server_instances" USING btree ("last_seen_at");