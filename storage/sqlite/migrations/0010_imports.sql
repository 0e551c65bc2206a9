-- Where each imported match came from (risk import; issue 42): the file's
-- name and hash, when, and whether its operator let its result count in
-- the server's stats (risk import --rated). A match without a row was
-- played here. The standings leave out the results of matches imported
-- without --rated (storage.Counted): whoever wrote the file chose its
-- seats' players, and so whom a finished match credits.
CREATE TABLE imports (
	match_id    INTEGER PRIMARY KEY REFERENCES matches (id),
	source      TEXT    NOT NULL CHECK (source <> ''),
	sha256      TEXT    NOT NULL, -- hexadecimal; '' if unknown
	imported_at INTEGER NOT NULL, -- Unix milliseconds
	rated       INTEGER NOT NULL CHECK (rated IN (0, 1))
);

-- The matches imported before: their data says so (meta.imported, set on
-- every match that started); they arrived when they were created here.
-- Their results stop counting, as an import without --rated.
INSERT INTO imports (match_id, source, sha256, imported_at, rated)
	SELECT id, 'an import before origins were kept', '', created_at, 0 FROM matches
	WHERE CASE WHEN json_valid(meta) THEN json_type(meta, '$.imported') = 'text' ELSE 0 END;
