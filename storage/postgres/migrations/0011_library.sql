-- The maps of servers' libraries (the SQLite store's 0011_library.sql):
-- each map's files once, by content, kept for good; each scope's maps by
-- name, one name per map whatever its case, one map per content.
CREATE TABLE map_files (
	name       text   PRIMARY KEY CHECK (name <> ''),
	hash       text   NOT NULL UNIQUE CHECK (length(hash) = 64),
	map        bytea  NOT NULL,
	picture    bytea  NOT NULL,
	idx        bytea  NOT NULL,
	created_at bigint NOT NULL
);

CREATE TABLE library (
	scope       text    NOT NULL CHECK (scope <> ''),
	name        text    NOT NULL CHECK (name <> ''),
	folded      text    NOT NULL,
	hash        text    NOT NULL REFERENCES map_files (hash),
	title       text    NOT NULL,
	author      text    NOT NULL,
	territories integer NOT NULL CHECK (territories >= 1),
	size        integer NOT NULL CHECK (size >= 0),
	added_at    bigint  NOT NULL,
	CONSTRAINT library_name PRIMARY KEY (scope, folded),
	CONSTRAINT library_hash UNIQUE (scope, hash)
);
