import { useCallback } from 'react';
import { useNavigate } from 'react-router';

/** Back to where the user came from (in this app), else to `fallback`. */
export function useBack(fallback: string) {
  const navigate = useNavigate();
  return useCallback(() => {
    const index = (window.history.state as { idx?: number } | null)?.idx ?? 0;
    if (index > 0) navigate(-1);
    else navigate(fallback);
  }, [navigate, fallback]);
}
