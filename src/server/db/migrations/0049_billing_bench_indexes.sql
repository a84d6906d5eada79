DROP INDEX "allocations_client_idx";--> statement-breakpoint
DROP INDEX "invoices_open_idx";--> statement-breakpoint
CREATE INDEX "allocations_client_amount_idx" ON "allocations" USING btree ("org_id","client_id","amount") WHERE reversed_at is null;--> statement-breakpoint
CREATE INDEX "invoices_org_idx" ON "invoices" USING btree ("org_id");--> statement-breakpoint
CREATE INDEX "invoices_open_balance_idx" ON "invoices" USING btree ("org_id","due_date","client_id","kind","balance") WHERE status in ('issued', 'sent', 'partly_paid');--> statement-breakpoint
CREATE INDEX "invoices_credit_notes_idx" ON "invoices" USING btree ("org_id","client_id","total") WHERE kind = 'credit_note' and status not in ('draft', 'void');--> statement-breakpoint
CREATE INDEX "payments_credit_idx" ON "payments" USING btree ("org_id","client_id","kind","amount","tds_amount","bank_charges") WHERE reversed_at is null;