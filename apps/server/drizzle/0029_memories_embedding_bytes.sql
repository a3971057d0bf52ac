-- Memory embeddings as bytes (docs/memory.md "Embeddings"): four bytes a float in network
-- order, as float4send writes them. A real[] came back as text that the server parsed number by
-- number (≈ 66 µs a 256-dimension vector, for every candidate and the 200 newest of a prompt);
-- the bytes are read with a view. Existing vectors are converted in place.
CREATE FUNCTION memories_float4_bytes(real[]) RETURNS bytea
LANGUAGE sql IMMUTABLE STRICT
AS $fn$ SELECT coalesce(string_agg(float4send(v), ''::bytea ORDER BY i), ''::bytea) FROM unnest($1) WITH ORDINALITY AS u(v, i) $fn$;
--> statement-breakpoint
ALTER TABLE "memories" ALTER COLUMN "embedding" SET DATA TYPE bytea USING memories_float4_bytes("embedding");
--> statement-breakpoint
DROP FUNCTION memories_float4_bytes(real[]);
