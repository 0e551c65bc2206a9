-- How each finished match ended, seat by seat (the SQLite store's
-- 0006_results.sql).
CREATE TABLE results (
	match_id bigint  NOT NULL,
	seat     integer NOT NULL CHECK (seat >= 0),
	server   text    NOT NULL CHECK (server <> ''),
	rules    text    NOT NULL CHECK (rules <> ''),
	player   text    NOT NULL CHECK (player <> ''),
	level    text    NOT NULL,
	name     text    NOT NULL,
	place    integer NOT NULL CHECK (place >= 1),
	ended_at bigint  NOT NULL,
	PRIMARY KEY (match_id, seat)
);

CREATE INDEX results_server ON results (server, ended_at, match_id, seat);
