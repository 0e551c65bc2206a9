-- Where each imported match came from (the SQLite store's
-- 0010_imports.sql): the file's name and hash, when, and whether its
-- result counts in the server's stats (risk import --rated).
CREATE TABLE imports (
	match_id    bigint  PRIMARY KEY REFERENCES matches (id),
	source      text    NOT NULL CHECK (source <> ''),
	sha256      text    NOT NULL,
	imported_at bigint  NOT NULL,
	rated       boolean NOT NULL
);

-- The matches imported before: their data says so (meta.imported).
INSERT INTO imports (match_id, source, sha256, imported_at, rated)
	SELECT m.id, 'an import before origins were kept', '', m.created_at, false
	FROM matches m JOIN heads h ON h.match_id = m.id
	WHERE json_typeof(h.meta) = 'object' AND json_typeof(h.meta -> 'imported') = 'string';
