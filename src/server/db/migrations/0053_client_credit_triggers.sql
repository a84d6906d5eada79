-- Each client's credit (client_billing.credit), kept by triggers in the transaction of every change
-- to what it counts: receipts with their TDS and bank charges, less refunds, plus issued credit
-- notes, less every live allocation (src/server/features/billing/payments/credit.ts). A row's share
-- is moved out under its old values and in under its new ones, so inserts, edits, reversals,
-- voids and deletes all land. A client deleted in the same transaction (a cascade) gets no row.
CREATE FUNCTION "client_credit_move"(p_org uuid, p_client uuid, p_delta bigint) RETURNS void LANGUAGE plpgsql AS $$
BEGIN
  IF p_delta IS NULL OR p_delta = 0 THEN
    RETURN;
  END IF;
  INSERT INTO "client_billing" ("org_id", "client_id", "credit")
    SELECT p_org, p_client, p_delta
    WHERE EXISTS (SELECT 1 FROM "clients" c WHERE c."org_id" = p_org AND c."id" = p_client)
  ON CONFLICT ("org_id", "client_id") DO UPDATE SET "credit" = "client_billing"."credit" + excluded."credit";
END $$;
--> statement-breakpoint
CREATE FUNCTION "client_credit_row_moved"(p_op text, p_old_org uuid, p_old_client uuid, p_old bigint,
  p_new_org uuid, p_new_client uuid, p_new bigint) RETURNS void LANGUAGE plpgsql AS $$
BEGIN
  IF p_op = 'UPDATE' AND p_old_org = p_new_org AND p_old_client = p_new_client THEN
    PERFORM "client_credit_move"(p_new_org, p_new_client, p_new - p_old);
    RETURN;
  END IF;
  IF p_op <> 'INSERT' THEN
    PERFORM "client_credit_move"(p_old_org, p_old_client, -p_old);
  END IF;
  IF p_op <> 'DELETE' THEN
    PERFORM "client_credit_move"(p_new_org, p_new_client, p_new);
  END IF;
END $$;
--> statement-breakpoint
CREATE FUNCTION "payments_credit_share"(p "payments") RETURNS bigint LANGUAGE sql IMMUTABLE AS $$
  SELECT CASE WHEN p."reversed_at" IS NOT NULL THEN 0
              WHEN p."kind" = 'receipt' THEN p."amount" + p."tds_amount" + p."bank_charges"
              WHEN p."kind" = 'refund' THEN -p."amount"
              ELSE 0 END
$$;
--> statement-breakpoint
CREATE FUNCTION "allocations_credit_share"(a "allocations") RETURNS bigint LANGUAGE sql IMMUTABLE AS $$
  SELECT CASE WHEN a."reversed_at" IS NULL THEN -a."amount" ELSE 0 END
$$;
--> statement-breakpoint
CREATE FUNCTION "invoices_credit_share"(i "invoices") RETURNS bigint LANGUAGE sql IMMUTABLE AS $$
  SELECT CASE WHEN i."kind" = 'credit_note' AND i."status" NOT IN ('draft', 'void') THEN i."total" ELSE 0 END
$$;
--> statement-breakpoint
CREATE FUNCTION "payments_credit"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM "client_credit_row_moved"(TG_OP,
    CASE WHEN TG_OP <> 'INSERT' THEN OLD."org_id" END, CASE WHEN TG_OP <> 'INSERT' THEN OLD."client_id" END,
    CASE WHEN TG_OP <> 'INSERT' THEN "payments_credit_share"(OLD) ELSE 0 END,
    CASE WHEN TG_OP <> 'DELETE' THEN NEW."org_id" END, CASE WHEN TG_OP <> 'DELETE' THEN NEW."client_id" END,
    CASE WHEN TG_OP <> 'DELETE' THEN "payments_credit_share"(NEW) ELSE 0 END);
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE FUNCTION "allocations_credit"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM "client_credit_row_moved"(TG_OP,
    CASE WHEN TG_OP <> 'INSERT' THEN OLD."org_id" END, CASE WHEN TG_OP <> 'INSERT' THEN OLD."client_id" END,
    CASE WHEN TG_OP <> 'INSERT' THEN "allocations_credit_share"(OLD) ELSE 0 END,
    CASE WHEN TG_OP <> 'DELETE' THEN NEW."org_id" END, CASE WHEN TG_OP <> 'DELETE' THEN NEW."client_id" END,
    CASE WHEN TG_OP <> 'DELETE' THEN "allocations_credit_share"(NEW) ELSE 0 END);
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE FUNCTION "invoices_credit"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM "client_credit_row_moved"(TG_OP,
    CASE WHEN TG_OP <> 'INSERT' THEN OLD."org_id" END, CASE WHEN TG_OP <> 'INSERT' THEN OLD."client_id" END,
    CASE WHEN TG_OP <> 'INSERT' THEN "invoices_credit_share"(OLD) ELSE 0 END,
    CASE WHEN TG_OP <> 'DELETE' THEN NEW."org_id" END, CASE WHEN TG_OP <> 'DELETE' THEN NEW."client_id" END,
    CASE WHEN TG_OP <> 'DELETE' THEN "invoices_credit_share"(NEW) ELSE 0 END);
  RETURN NULL;
END $$;
--> statement-breakpoint
-- What the rows hold today, before the triggers keep it.
INSERT INTO "client_billing" ("org_id", "client_id", "credit")
  SELECT "org_id", "client_id", sum("v")::bigint FROM (
    SELECT p."org_id", p."client_id", "payments_credit_share"(p) AS "v" FROM "payments" p
    UNION ALL SELECT a."org_id", a."client_id", "allocations_credit_share"(a) FROM "allocations" a
    UNION ALL SELECT i."org_id", i."client_id", "invoices_credit_share"(i) FROM "invoices" i WHERE i."kind" = 'credit_note'
  ) AS "shares"
  GROUP BY "org_id", "client_id"
  HAVING sum("v") <> 0
ON CONFLICT ("org_id", "client_id") DO UPDATE SET "credit" = excluded."credit";
--> statement-breakpoint
CREATE TRIGGER "payments_credit" AFTER INSERT OR UPDATE OR DELETE ON "payments"
  FOR EACH ROW EXECUTE FUNCTION "payments_credit"();
--> statement-breakpoint
CREATE TRIGGER "allocations_credit" AFTER INSERT OR UPDATE OR DELETE ON "allocations"
  FOR EACH ROW EXECUTE FUNCTION "allocations_credit"();
--> statement-breakpoint
CREATE TRIGGER "invoices_credit" AFTER INSERT OR UPDATE OF "kind", "status", "total", "client_id", "org_id" OR DELETE ON "invoices"
  FOR EACH ROW EXECUTE FUNCTION "invoices_credit"();
