-- Trigram matching for typo-tolerant search (client names and the like).
CREATE EXTENSION IF NOT EXISTS pg_trgm;
