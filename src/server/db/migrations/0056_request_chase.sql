CREATE TABLE "request_reminder_steps" (
	"org_id" uuid NOT NULL,
	"request_id" uuid NOT NULL,
	"step" text NOT NULL,
	"reminder_id" uuid,
	"sent_at" timestamp with time zone DEFAULT now() NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "request_reminder_steps_org_id_request_id_step_pk" PRIMARY KEY("org_id","request_id","step")
);
--> statement-breakpoint
CREATE TABLE "request_settings" (
	"org_id" uuid PRIMARY KEY NOT NULL,
	"chase_before_days" smallint[] DEFAULT '{7,1}'::smallint[] NOT NULL,
	"chase_on_due" boolean DEFAULT true NOT NULL,
	"chase_every_days" smallint DEFAULT 3,
	"flag_after" smallint DEFAULT 3 NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "reminders" ADD COLUMN "request_id" uuid;--> statement-breakpoint
ALTER TABLE "requests" ADD COLUMN "chase_before_days" smallint[] DEFAULT '{7,1}'::smallint[] NOT NULL;--> statement-breakpoint
ALTER TABLE "requests" ADD COLUMN "chase_on_due" boolean DEFAULT true NOT NULL;--> statement-breakpoint
ALTER TABLE "requests" ADD COLUMN "chase_every_days" smallint DEFAULT 3;--> statement-breakpoint
ALTER TABLE "requests" ADD COLUMN "chase_paused" boolean DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE "requests" ADD COLUMN "needs_attention_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "request_reminder_steps" ADD CONSTRAINT "request_reminder_steps_org_id_orgs_id_fk" FOREIGN KEY ("org_id") REFERENCES "public"."orgs"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "request_reminder_steps" ADD CONSTRAINT "request_reminder_steps_request_fk" FOREIGN KEY ("org_id","request_id") REFERENCES "public"."requests"("org_id","id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "request_reminder_steps" ADD CONSTRAINT "request_reminder_steps_reminder_fk" FOREIGN KEY ("org_id","reminder_id") REFERENCES "public"."reminders"("org_id","id") ON DELETE SET NULL ("reminder_id") ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "request_settings" ADD CONSTRAINT "request_settings_org_id_orgs_id_fk" FOREIGN KEY ("org_id") REFERENCES "public"."orgs"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "request_reminder_steps_reminder_idx" ON "request_reminder_steps" USING btree ("org_id","reminder_id");--> statement-breakpoint
ALTER TABLE "reminders" ADD CONSTRAINT "reminders_request_fk" FOREIGN KEY ("org_id","request_id") REFERENCES "public"."requests"("org_id","id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "reminders_request_idx" ON "reminders" USING btree ("org_id","request_id") WHERE request_id is not null;