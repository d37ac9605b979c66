-- Written by hand: the texts too short to hold a trigram, in a partial index of their own.
-- Reading a search index's vocabulary (lib/vocabulary.ts) lists them, since the trigrams do
-- not say which one- and two-character terms they hold; without an index that read every row
-- of the table (0.3-1.2 s at a million posts, more on a cold page cache). The index holds no
-- other text, so it costs nothing to keep.
CREATE INDEX "Post_searchText_short_texts_idx" ON "Post"("searchText") WHERE length("searchText") < 3;

CREATE INDEX "Changelog_searchText_short_texts_idx" ON "Changelog"("searchText") WHERE length("searchText") < 3;
