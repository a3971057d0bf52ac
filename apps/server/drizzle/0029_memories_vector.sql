-- Memory embeddings as bytes (docs/memory.md "Embeddings"): four bytes a float in network
-- order, as float4send writes them, read back with a view. The real[] column came back as text
-- that the server parsed number by number (≈ 66 µs a 256-dimension vector, for every candidate
-- and the 200 newest memories of a prompt). Additive: the new column is filled from the old one,
-- which stays as it is, so replicas of the previous version keep working during a rolling
-- upgrade, and a rollback finds its vectors. The function stays too: the prompt's read falls back
-- to it for a memory an older replica wrote meanwhile (`embedding` only).
ALTER TABLE "memories" ADD COLUMN "vector" bytea;
--> statement-breakpoint
CREATE FUNCTION memories_float4_bytes(real[]) RETURNS bytea
LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE
AS $fn$ SELECT coalesce(string_agg(float4send(v), ''::bytea ORDER BY i), ''::bytea) FROM unnest($1) WITH ORDINALITY AS u(v, i) $fn$;
--> statement-breakpoint
UPDATE "memories" SET "vector" = memories_float4_bytes("embedding") WHERE "embedding" IS NOT NULL;
