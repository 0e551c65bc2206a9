-- How each finished match ended, seat by seat, for the leaderboards and
-- the players' statistics (DB.RecordResult). Ratings are not stored: they
-- follow from the results in the order the matches ended (engine/rating).
CREATE TABLE results (
	match_id INTEGER NOT NULL,
	seat     INTEGER NOT NULL CHECK (seat >= 0),
	server   TEXT    NOT NULL CHECK (server <> ''),
	rules    TEXT    NOT NULL CHECK (rules <> ''),
	player   TEXT    NOT NULL CHECK (player <> ''),
	level    TEXT    NOT NULL, -- a computer seat's level; '' for a person
	name     TEXT    NOT NULL,
	place    INTEGER NOT NULL CHECK (place >= 1),
	ended_at INTEGER NOT NULL, -- Unix milliseconds
	PRIMARY KEY (match_id, seat)
) WITHOUT ROWID;

-- A server's results in the order they are rated.
CREATE INDEX results_server ON results (server, ended_at, match_id, seat);
