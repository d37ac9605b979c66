import { Prisma } from "./db";
import type { Engine } from "./env";

// Search, as the contract defines it: the text is split on whitespace into terms, and a record
// matches when every term occurs, case-insensitively, as a substring of its title or of its
// content. Records keep a `searchText` column, the folded title and folded content joined by a
// newline; terms hold no whitespace, so a term can never match across the two.

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

/** Trigram indexes can only serve terms of three characters or more. */
const TRIGRAM = 3;

function escapeLike(term: string): string {
  return term.replace(/[\\%_]/g, (c) => `\\${c}`);
}

/** Terms a trigram index can serve: three characters or more. */
export function indexedTerms(terms: string[]): string[] {
  return terms.filter((t) => [...t].length >= TRIGRAM);
}

/**
 * An FTS5 query that every term must match, each as a quoted phrase. With the trigram
 * tokenizer (case-sensitive, over folded text) a phrase of three or more characters matches
 * exactly the rows that contain it as a substring, so for such terms the index alone answers.
 */
export function ftsMatch(terms: string[]): string {
  return terms.map((t) => `"${t.replace(/"/g, '""')}"`).join(" AND ");
}

/** The per-row test for every term, for rows already narrowed down (SQLite). */
export function substringCondition(terms: string[], alias: string): Prisma.Sql {
  const column = Prisma.raw(`${alias}."searchText"`);
  return Prisma.join(
    terms.map((t) => Prisma.sql`instr(${column}, ${t}) > 0`),
    " AND ",
  );
}

/**
 * The WHERE condition for a table with `seq` and `searchText`, given its trigram index table
 * (SQLite FTS5; PostgreSQL uses a pg_trgm index on the column itself).
 */
export function searchCondition(engine: Engine, terms: string[], alias: string, ftsTable: string): Prisma.Sql {
  const column = Prisma.raw(`${alias}."searchText"`);
  if (engine === "postgres") {
    // LIKE with every wildcard escaped is a literal substring test that pg_trgm can serve.
    return Prisma.join(
      terms.map((t) => Prisma.sql`${column} LIKE ${`%${escapeLike(t)}%`} ESCAPE '\\'`),
      " AND ",
    );
  }
  // The index answers terms of three characters or more exactly; shorter ones are checked
  // row by row on what the index leaves (or on every row, if no term is long enough).
  const indexed = indexedTerms(terms);
  const short = terms.filter((t) => !indexed.includes(t));
  const conditions = short.length ? [substringCondition(short, alias)] : [];
  if (indexed.length) {
    conditions.unshift(
      Prisma.sql`${Prisma.raw(`${alias}."seq"`)} IN (SELECT rowid FROM ${Prisma.raw(`"${ftsTable}"`)} WHERE ${Prisma.raw(`"${ftsTable}"`)} MATCH ${ftsMatch(indexed)})`,
    );
  }
  return Prisma.join(conditions, " AND ");
}
