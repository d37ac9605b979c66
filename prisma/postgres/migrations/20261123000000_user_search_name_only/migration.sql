-- Written by hand: a user is searched by what the API shows of them, the name, never by the
-- email it leaves out (lib/search.ts userSearchTextOf). Rows written before held the folded
-- name, a space and the folded email (the space even without an email). Imported emails are
-- ASCII (the import checks them with zod's email pattern) and so are the seed's, so the folded
-- email is lower("email"): the update strips exactly that suffix, and leaves alone any row
-- that does not end with it, such as one already holding the name alone.
UPDATE "User"
SET "searchText" = left("searchText", -length(' ' || coalesce(lower("email"), '')))
WHERE right("searchText", length(' ' || coalesce(lower("email"), ''))) = ' ' || coalesce(lower("email"), '');
