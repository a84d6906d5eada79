-- Request files are held with their item until the firm accepts it (issue 36). The rows already
-- there were filed into the request's folder as they were uploaded: they keep their document and
-- take its current version's stored file, as filed at their upload.
ALTER TABLE "request_item_files" DROP CONSTRAINT "request_item_files_org_id_item_id_document_id_pk";--> statement-breakpoint
ALTER TABLE "request_item_files" ALTER COLUMN "document_id" DROP NOT NULL;--> statement-breakpoint
ALTER TABLE "request_item_files" ADD COLUMN "id" uuid;--> statement-breakpoint
ALTER TABLE "request_item_files" ADD COLUMN "name" text;--> statement-breakpoint
ALTER TABLE "request_item_files" ADD COLUMN "size" bigint;--> statement-breakpoint
ALTER TABLE "request_item_files" ADD COLUMN "content_type" text;--> statement-breakpoint
ALTER TABLE "request_item_files" ADD COLUMN "checksum_sha256" text;--> statement-breakpoint
ALTER TABLE "request_item_files" ADD COLUMN "storage_key" text;--> statement-breakpoint
ALTER TABLE "request_item_files" ADD COLUMN "uploaded_by_client_user_id" uuid;--> statement-breakpoint
ALTER TABLE "request_item_files" ADD COLUMN "filed_at" timestamp with time zone;--> statement-breakpoint
UPDATE "request_item_files" f SET
  "id" = gen_random_uuid(),
  "name" = d."name",
  "size" = v."size",
  "content_type" = v."content_type",
  "checksum_sha256" = v."checksum_sha256",
  "storage_key" = v."storage_key",
  "uploaded_by_client_user_id" = d."uploaded_by_client_user_id",
  "filed_at" = f."created_at"
FROM "documents" d
JOIN "document_versions" v ON v."org_id" = d."org_id" AND v."id" = d."current_version_id"
WHERE d."org_id" = f."org_id" AND d."id" = f."document_id";--> statement-breakpoint
DELETE FROM "request_item_files" WHERE "id" IS NULL;--> statement-breakpoint
ALTER TABLE "request_item_files" ALTER COLUMN "id" SET NOT NULL;--> statement-breakpoint
ALTER TABLE "request_item_files" ADD PRIMARY KEY ("id");--> statement-breakpoint
ALTER TABLE "request_item_files" ALTER COLUMN "name" SET NOT NULL;--> statement-breakpoint
ALTER TABLE "request_item_files" ALTER COLUMN "size" SET NOT NULL;--> statement-breakpoint
ALTER TABLE "request_item_files" ALTER COLUMN "content_type" SET NOT NULL;--> statement-breakpoint
ALTER TABLE "request_item_files" ALTER COLUMN "checksum_sha256" SET NOT NULL;--> statement-breakpoint
ALTER TABLE "request_item_files" ALTER COLUMN "storage_key" SET NOT NULL;--> statement-breakpoint
ALTER TABLE "request_item_files" ADD CONSTRAINT "request_item_files_uploaded_by_fk" FOREIGN KEY ("org_id","uploaded_by_client_user_id") REFERENCES "public"."client_users"("org_id","id") ON DELETE SET NULL ("uploaded_by_client_user_id") ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "request_item_files_item_idx" ON "request_item_files" USING btree ("org_id","item_id","created_at");--> statement-breakpoint
ALTER TABLE "request_item_files" ADD CONSTRAINT "request_item_files_org_id_id_key" UNIQUE("org_id","id");
