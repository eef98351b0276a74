-- Trigram similarity for Thai and Latin search; available on PGlite (contrib) and PostgreSQL.
CREATE EXTENSION IF NOT EXISTS pg_trgm;
