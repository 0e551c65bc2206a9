-- What the host keeps outside any match, as its own JSON, by scope and id
-- (the SQLite store's 0004_settings.sql).
CREATE TABLE settings (
	scope      text   NOT NULL CHECK (scope <> ''),
	id         text   NOT NULL CHECK (id <> ''),
	value      json   NOT NULL,
	updated_at bigint NOT NULL,
	PRIMARY KEY (scope, id)
);

-- Lobbies by their last change, to close those never started
-- (IdleLobbies).
CREATE INDEX matches_idle_lobbies ON matches (updated_at) WHERE status = 1;
