-- A prompt's memories ranked by words (docs/memory.md "Retrieval"): the statement of
-- memories.repository.ts `rankedByWords`, word for word ($1…$11 are this function's arguments in
-- its order; memories.ranked.test.ts checks the text), run with its generic plan. Prepared as a
-- statement, PostgreSQL planned it again at every execution (≈ 0.6 ms): the generic plan's
-- estimate (`terms && $n` at the default 1 % of the table) stays above the custom plans', which
-- see the terms. The generic plan reads the same GIN index and executes as fast.
CREATE FUNCTION memories_by_words(text, text, uuid, uuid, int, float8, uuid, uuid, int, int, int)
RETURNS TABLE (id uuid, kind text, text text, "eventDate" text, importance smallint, "updatedAt" float8,
  dfs int[], "termCount" int, n int, rest int, src text)
LANGUAGE plpgsql STABLE
SET plan_cache_mode = force_generic_plan
AS $fn$
#variable_conflict use_column
BEGIN
  RETURN QUERY with c as materialized (
    select c.id, c.kind, c.text, c.event_date, c.importance, c.updated_at, c.matched, cardinality(c.terms) as term_count
    from (select m.id, m.user_id, m.bot_id, m.kind, m.text, m.event_date, m.importance, m.updated_at, m.terms,
            array(select t from unnest(m.terms) t where t = any((select string_to_array($1, ' '))::text[])) as matched
          from memories m where m.terms && string_to_array($2, ' ') offset 0) c
    where c.user_id = $3 and c.bot_id = $4
    order by cardinality(c.matched) desc, c.updated_at desc
    limit $5
  ), n as (select count(*)::int as n, min(char_length(c.text))::int as shortest from c),
  df as (select t, count(*)::int as df from c, unnest(c.matched) t group by t),
  ranked as (
    select c.id, c.kind, c.text, c.event_date, c.importance, c.ms, c.term_count, x.dfs,
      row_number() over (order by
        coalesce(x.idf, 0) / (0.5 + 0.5 * (greatest(c.term_count, 1) / 8.0::float8)) / 10
        + 0.08 * (c.importance / 5.0::float8)
        + 0.05 * exp(least(700, greatest(-700, -($6::float8 - c.ms) / 2592000000.0::float8)))
        desc, c.ms desc, c.id) as rn
    from (select c.*, floor(round(date_part('epoch', c.updated_at) * 1000000) / 1000) as ms from c) c, n, lateral (
      select array_agg(d.df order by u.o) as dfs,
        sum(ln(1 + (greatest(n.n * 4, 50) - d.df + 0.5::float8) / (d.df + 0.5::float8))) as idf
      from unnest(c.matched) with ordinality u(t, o) join df d on d.t = u.t) x
  )
  (select p.id, p.kind, p.text, p.event_date as "eventDate", p.importance,
      (extract(epoch from p.updated_at) * 1000)::float8 as "updatedAt",
      null::int[] as dfs, 0 as "termCount", null::int as n, null::int as rest, 'p' as src
    from memories p where p.user_id = $7 and p.bot_id = $8 and p.pinned
    order by p.importance desc, p.updated_at desc
    limit $9)
  union all
  (select r.id, r.kind, r.text, r.event_date, r.importance, r.ms,
      r.dfs, r.term_count, (select n from n), (select case when n > $10 then shortest end from n), 'c'
    from ranked r where r.rn <= $11
    order by r.rn);
END
$fn$;
