-- Search speed (docs/characters.md "Search", issue 30): hand-written, drizzle cannot express it.
-- The official filter's searches read a partial GIN index of the listed official characters
-- (a few dozen in practice) instead of every match of `bots_search_idx` for the heap to drop.
CREATE INDEX "bots_search_official_idx" ON "bots" USING gin ("search_vector") WITH (fastupdate = off)
  WHERE "bots"."kind" = 'character' and "bots"."visibility" = 'public' and "bots"."review_state" = 'approved' and "bots"."is_official" = true;--> statement-breakpoint
-- Typo corrections: a GIN trigram index serves `word % $1` from the posting lists of the word's
-- own trigrams; the GiST index's nearest-neighbour walk visited most of a large dictionary
-- (its 96-bit signatures saturate), 30-60 ms a word among 85 000. fastupdate off: words come
-- in bulk (a statement trigger), and a look-up would otherwise scan the pending list.
DROP INDEX IF EXISTS "bot_search_words_trgm_idx";--> statement-breakpoint
CREATE INDEX "bot_search_words_trgm_idx" ON "bot_search_words" USING gin ("word" gin_trgm_ops) WITH (fastupdate = off);
