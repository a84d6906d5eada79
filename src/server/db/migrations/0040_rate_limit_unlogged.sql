-- The rate limit's counters are written on every API call and worth nothing after a crash: an
-- unlogged table writes no WAL, so a call's count costs no WAL flush (no fsync per request).
ALTER TABLE "rate_limit_counters" SET UNLOGGED;
