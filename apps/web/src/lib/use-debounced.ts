import { useEffect, useState } from 'react';

/**
 * A search field's text, and the query asked of the server once typing pauses (300 ms), not on
 * every key; trimmed unless `trim` is false.
 */
export function useSearchQuery({ trim = true }: { trim?: boolean } = {}) {
  const [search, setSearch] = useState('');
  const [query, setQuery] = useState('');
  useEffect(() => {
    const timer = setTimeout(() => setQuery(trim ? search.trim() : search), 300);
    return () => clearTimeout(timer);
  }, [search, trim]);
  return { search, setSearch, query };
}
