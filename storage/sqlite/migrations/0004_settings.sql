-- What the host keeps outside any match, as its own JSON, by scope and
-- id: a server's defaults and limits, a player's notification choices,
-- what it learnt of a channel (that it refused a post).
CREATE TABLE settings (
	scope      TEXT    NOT NULL CHECK (scope <> ''),
	id         TEXT    NOT NULL CHECK (id <> ''),
	value      TEXT    NOT NULL CHECK (json_valid(value)),
	updated_at INTEGER NOT NULL,
	PRIMARY KEY (scope, id)
) WITHOUT ROWID;

-- Lobbies by their last change, to close those never started
-- (DB.IdleLobbies).
CREATE INDEX matches_idle_lobbies ON matches (updated_at) WHERE status = 1;
