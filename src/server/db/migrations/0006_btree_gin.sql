-- Lets a GIN index hold plain columns (the firm, a client's type) beside trigrams.
CREATE EXTENSION IF NOT EXISTS btree_gin;
