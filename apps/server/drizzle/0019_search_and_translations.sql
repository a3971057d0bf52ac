CREATE TABLE "bot_search_words" (
	"word" text PRIMARY KEY NOT NULL
);
--> statement-breakpoint
ALTER TABLE "blog_posts" ADD COLUMN "translations" jsonb DEFAULT '{}'::jsonb NOT NULL;--> statement-breakpoint
ALTER TABLE "bots" ADD COLUMN "translations" jsonb DEFAULT '{}'::jsonb NOT NULL;--> statement-breakpoint
-- Search (docs/characters.md "Search"): hand-written, drizzle cannot express it.
CREATE EXTENSION IF NOT EXISTS pg_trgm;--> statement-breakpoint
-- Chinese has no word parser in PostgreSQL: each Han character and each pair of neighbouring
-- ones becomes a word ("宇航员" → 宇 航 员 宇航 航员), as CJK bigram indexing does.
CREATE FUNCTION reverie_han_grams(doc text) RETURNS text
LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE AS $$
  SELECT CASE WHEN doc !~ '[\u3400-\u9fff]' THEN '' ELSE coalesce((
    SELECT string_agg(gram, ' ') FROM (
      SELECT substr(doc, i, 1) AS gram FROM generate_series(1, length(doc)) AS i
      WHERE substr(doc, i, 1) ~ '[\u3400-\u9fff]'
      UNION ALL
      SELECT substr(doc, i, 2) FROM generate_series(1, length(doc) - 1) AS i
      WHERE substr(doc, i, 2) ~ '^[\u3400-\u9fff]{2}$'
    ) AS grams), '') END
$$;--> statement-breakpoint
-- A JSON array of texts as a text array (null when it is not one).
CREATE FUNCTION reverie_text_array(value jsonb) RETURNS text[]
LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $$
  SELECT CASE WHEN jsonb_typeof(value) = 'array' THEN ARRAY(SELECT jsonb_array_elements_text(value)) END
$$;--> statement-breakpoint
-- One language's words: its translation when there is one, else the character's own text.
-- Weights: tags B, description C, greeting D (the name is A, below).
CREATE FUNCTION reverie_bot_language_vector(
  cfg regconfig, tags text[], occupation text[], personality text[], description text, greeting text, tr jsonb
) RETURNS tsvector
LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $$
  SELECT setweight(to_tsvector(cfg, array_to_string(
           tags || coalesce(reverie_text_array(tr -> 'occupation'), occupation)
                || coalesce(reverie_text_array(tr -> 'personality'), personality), ' ')), 'B')
      || setweight(to_tsvector(cfg, coalesce(tr ->> 'description', description)), 'C')
      || setweight(to_tsvector(cfg, coalesce(tr ->> 'greeting', greeting)), 'D')
$$;--> statement-breakpoint
CREATE FUNCTION reverie_bot_search_vector(
  name text, tags text[], occupation text[], personality text[], description text, greeting text, tr jsonb
) RETURNS tsvector
LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $$
  SELECT setweight(to_tsvector('simple', name), 'A')
      || setweight(to_tsvector('simple', reverie_han_grams(name)), 'A')
      || setweight(to_tsvector('simple', array_to_string(tags || occupation || personality, ' ')), 'B')
      || reverie_bot_language_vector('english', tags, occupation, personality, description, greeting, NULL)
      || reverie_bot_language_vector('spanish', tags, occupation, personality, description, greeting, tr -> 'es')
      || reverie_bot_language_vector('german', tags, occupation, personality, description, greeting, tr -> 'de')
      || reverie_bot_language_vector('russian', tags, occupation, personality, description, greeting, tr -> 'ru')
      || setweight(to_tsvector('simple', reverie_han_grams(array_to_string(
           coalesce(reverie_text_array(tr #> '{ch,occupation}'), occupation)
           || coalesce(reverie_text_array(tr #> '{ch,personality}'), personality), ' '))), 'B')
      || setweight(to_tsvector('simple', reverie_han_grams(coalesce(tr #>> '{ch,description}', description))), 'C')
      || setweight(to_tsvector('simple', reverie_han_grams(coalesce(tr #>> '{ch,greeting}', greeting))), 'D')
$$;--> statement-breakpoint
ALTER TABLE "bots" ADD COLUMN "search_vector" tsvector GENERATED ALWAYS AS (
  reverie_bot_search_vector("name", "tags", "occupation", "personality", "description", "greeting", "translations")
) STORED;--> statement-breakpoint
-- fastupdate off: a new character is in the index at once, no pending list for searches to scan.
CREATE INDEX "bots_search_idx" ON "bots" USING gin ("search_vector") WITH (fastupdate = off)
  WHERE "bots"."kind" = 'character' and "bots"."visibility" = 'public' and "bots"."review_state" = 'approved';--> statement-breakpoint
CREATE INDEX "bot_search_words_trgm_idx" ON "bot_search_words" USING gist ("word" gist_trgm_ops);--> statement-breakpoint
-- The listed characters' words (every language but Chinese), for correcting mistyped ones.
CREATE FUNCTION reverie_collect_bot_words() RETURNS trigger
LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO bot_search_words (word)
  SELECT DISTINCT w FROM new_rows AS r,
    unnest(tsvector_to_array(to_tsvector('simple', concat_ws(' ',
      r.name, array_to_string(r.tags || r.occupation || r.personality, ' '), r.description, r.greeting,
      (SELECT string_agg(v #>> '{}', ' ')
         FROM jsonb_path_query(r.translations, 'strict $.** ? (@.type() == "string")') AS v))))) AS w
  WHERE r.kind = 'character' AND r.visibility = 'public' AND r.review_state = 'approved'
    AND length(w) BETWEEN 3 AND 40 AND w !~ '[\u3400-\u9fff]'
  ON CONFLICT DO NOTHING;
  RETURN NULL;
END
$$;--> statement-breakpoint
CREATE TRIGGER "bots_search_words_insert" AFTER INSERT ON "bots"
  REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION reverie_collect_bot_words();--> statement-breakpoint
CREATE TRIGGER "bots_search_words_update" AFTER UPDATE ON "bots"
  REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION reverie_collect_bot_words();--> statement-breakpoint
INSERT INTO bot_search_words (word)
SELECT DISTINCT w FROM bots AS r,
  unnest(tsvector_to_array(to_tsvector('simple', concat_ws(' ',
    r.name, array_to_string(r.tags || r.occupation || r.personality, ' '), r.description, r.greeting)))) AS w
WHERE r.kind = 'character' AND r.visibility = 'public' AND r.review_state = 'approved'
  AND length(w) BETWEEN 3 AND 40 AND w !~ '[\u3400-\u9fff]'
ON CONFLICT DO NOTHING;
