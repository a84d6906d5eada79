CREATE TABLE "vault_server_secrets" (
	"name" text PRIMARY KEY NOT NULL,
	"sealed" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
-- Recovery codes made so far are HMACs under a key derived from the master key, which the new
-- keyed-hash key replaces: they could never match again, so they go (nothing shipped had any) and
-- the account screen offers a new set instead of counting dead codes.
DELETE FROM "idp_recovery_codes";
