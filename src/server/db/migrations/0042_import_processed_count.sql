-- processed_rows held the cursor (a file row number: 3,000 rows ended at 3,001). It moves to
-- cursor_row, and processed_rows becomes the count of staged rows stepped over.
UPDATE "client_imports" i SET "cursor_row" = i."processed_rows",
  "processed_rows" = (SELECT count(*) FROM "client_import_rows" r
    WHERE r."import_id" = i."id" AND r."row_no" <= i."processed_rows");
