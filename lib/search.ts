// Search, as the contract defines it: the text is split on whitespace into terms, and a record
// matches when every term occurs, case-insensitively, as a substring of its title or of its
// content. Records keep a `searchText` column, the folded title and folded content joined by a
// newline; terms hold no whitespace, so a term can never match across the two. How each engine
// finds the terms (its trigram index, a substring test) is in lib/dialect.ts.

/**
 * Folds text for case-insensitive comparison across all of Unicode: NFC, then upper and lower
 * case (so "ß" and "SS" agree), with the Greek final sigma taken as a plain sigma.
 */
export function fold(text: string): string {
  return text.normalize("NFC").toUpperCase().toLowerCase().replace(/ς/g, "σ");
}

export function searchTextOf(title: string, content: string): string {
  return `${fold(title)}\n${fold(content)}`;
}

/**
 * A user is found by what the API shows of them, the name, and never by the email it leaves
 * out: otherwise a read key could recover an address one character at a time.
 */
export function userSearchTextOf(name: string): string {
  return fold(name);
}

export function searchTerms(search: string | undefined): string[] {
  if (!search) return [];
  return [...new Set(fold(search).split(/\s+/u).filter(Boolean))];
}
