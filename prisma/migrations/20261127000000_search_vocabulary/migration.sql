-- Written by hand: each trigram index's vocabulary, one row per trigram with the number of rows
-- that hold it, read by lib/vocabulary.ts to serve one- and two-character search terms through
-- the index (a term is found by the trigrams that contain it). fts5vocab tables store nothing:
-- they read the index they name, so they need no triggers and are always current.
CREATE VIRTUAL TABLE "PostSearchVocab" USING fts5vocab('PostSearch', 'row');

CREATE VIRTUAL TABLE "ChangelogSearchVocab" USING fts5vocab('ChangelogSearch', 'row');
