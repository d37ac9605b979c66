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

export function searchTerms(search: string | undefined): string[] {
  if (!search) return [];
  return [...new Set(fold(search).split(/\s+/u).filter(Boolean))];
}

/** Trigram indexes can only serve terms of three characters or more. */
const TRIGRAM = 3;

function escapeLike(term: string): string {
  return term.replace(/[\\%_]/g, (c) => `\\${c}`);
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
  const conditions = terms.map((t) => Prisma.sql`instr(${column}, ${t}) > 0`);
  const indexed = terms.filter((t) => [...t].length >= TRIGRAM);
  if (indexed.length) {
    const match = indexed.map((t) => `"${t.replace(/"/g, '""')}"`).join(" AND ");
    conditions.unshift(
      Prisma.sql`${Prisma.raw(`${alias}."seq"`)} IN (SELECT rowid FROM ${Prisma.raw(`"${ftsTable}"`)} WHERE ${Prisma.raw(`"${ftsTable}"`)} MATCH ${match})`,
    );
  }
  return Prisma.join(conditions, " AND ");
}
