/** The last queries run, kept in localStorage (newest first, duplicates moved to the top). */

/** One remembered query. */
export interface HistoryEntry {
  lang: "sql" | "promql";
  text: string;
  db: string;
  at: number;
}

const KEY = "petrel.history";
const MAX = 50;

/** The remembered queries, newest first. */
export function loadHistory(): HistoryEntry[] {
  try {
    const list = JSON.parse(localStorage.getItem(KEY) ?? "[]");
    return Array.isArray(list) ? list.filter((e) => typeof e?.text === "string") : [];
  } catch {
    return [];
  }
}

/** Remembers a query. */
export function remember(entry: Omit<HistoryEntry, "at">): HistoryEntry[] {
  const list = loadHistory().filter((e) =>
    !(e.text === entry.text && e.lang === entry.lang && e.db === entry.db)
  );
  list.unshift({ ...entry, at: Date.now() });
  const kept = list.slice(0, MAX);
  localStorage.setItem(KEY, JSON.stringify(kept));
  return kept;
}

/** Forgets every query. */
export function clearHistory(): void {
  localStorage.removeItem(KEY);
}
