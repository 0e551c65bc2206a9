-- The maps of servers' libraries (issue 44).
--
-- map_files holds each map's three files once, by content: name is
-- engine.LibraryName(hash), what a match's options name. They are kept for
-- good, whatever the libraries do: a finished match replays on its map.
CREATE TABLE map_files (
	name       TEXT    PRIMARY KEY CHECK (name <> ''),
	hash       TEXT    NOT NULL UNIQUE CHECK (length(hash) = 64),
	map        BLOB    NOT NULL,
	picture    BLOB    NOT NULL,
	idx        BLOB    NOT NULL,
	created_at INTEGER NOT NULL -- Unix milliseconds
);

-- A scope's library (a chat server: "discord:1234", "web", "console"):
-- its maps by the names its people gave them, one name per map whatever
-- its case (folded: storage.FoldName), one map per content.
CREATE TABLE library (
	scope       TEXT    NOT NULL CHECK (scope <> ''),
	name        TEXT    NOT NULL CHECK (name <> ''),
	folded      TEXT    NOT NULL,
	hash        TEXT    NOT NULL REFERENCES map_files (hash),
	title       TEXT    NOT NULL,
	author      TEXT    NOT NULL,
	territories INTEGER NOT NULL CHECK (territories >= 1),
	size        INTEGER NOT NULL CHECK (size >= 0),
	added_at    INTEGER NOT NULL, -- Unix milliseconds
	PRIMARY KEY (scope, folded),
	UNIQUE (scope, hash)
);
