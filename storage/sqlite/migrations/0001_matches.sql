-- Matches, their command logs and snapshots.
--
-- Times are Unix milliseconds (UTC); NULL is "unset". Statuses: 1 lobby,
-- 2 active, 3 finished, 4 abandoned (storage.Status).

-- A hosted match. version counts every change to it (the optimistic lock);
-- commands is the length of its log.
CREATE TABLE matches (
	id          INTEGER PRIMARY KEY,
	channel     TEXT    NOT NULL CHECK (channel <> ''),
	status      INTEGER NOT NULL CHECK (status IN (1, 2, 3, 4)),
	version     INTEGER NOT NULL CHECK (version >= 1),
	meta        TEXT    CHECK (meta IS NULL OR json_valid(meta)),
	setup       TEXT    CHECK (setup IS NULL OR json_valid(setup)),
	commands    INTEGER NOT NULL DEFAULT 0 CHECK (commands >= 0),
	remind_at   INTEGER,
	deadline_at INTEGER,
	created_at  INTEGER NOT NULL,
	updated_at  INTEGER NOT NULL,
	closed_at   INTEGER,
	-- A lobby has no setup and no log; an active or finished match has a
	-- setup; an abandoned one may have either.
	CHECK (CASE status
		WHEN 1 THEN setup IS NULL AND commands = 0
		WHEN 4 THEN setup IS NOT NULL OR commands = 0
		ELSE setup IS NOT NULL END),
	-- Only open matches have a turn clock; only closed ones a closing time.
	CHECK (status IN (1, 2) OR (remind_at IS NULL AND deadline_at IS NULL)),
	CHECK ((status IN (3, 4)) = (closed_at IS NOT NULL))
);

-- One open (lobby or active) match per channel.
CREATE UNIQUE INDEX matches_open_channel ON matches (channel) WHERE status IN (1, 2);

-- Every match a channel hosted (DB.History).
CREATE INDEX matches_channel ON matches (channel, id);

-- Turn clocks of active matches (DB.Due).
CREATE INDEX matches_remind ON matches (remind_at) WHERE status = 2 AND remind_at IS NOT NULL;
CREATE INDEX matches_deadline ON matches (deadline_at) WHERE status = 2 AND deadline_at IS NOT NULL;

-- Closed matches, most recent first (DB.Finished).
CREATE INDEX matches_closed ON matches (closed_at, id) WHERE status IN (3, 4);

-- The command log, the truth about a match: entry seq (from 1) is the
-- seq-th accepted command, as engine.Entry JSON. version is the match
-- version whose change stored it.
CREATE TABLE log (
	match_id   INTEGER NOT NULL REFERENCES matches (id),
	seq        INTEGER NOT NULL CHECK (seq >= 1),
	version    INTEGER NOT NULL,
	entry      TEXT    NOT NULL CHECK (json_valid(entry)),
	created_at INTEGER NOT NULL,
	PRIMARY KEY (match_id, seq)
) WITHOUT ROWID;

-- The log is append-only.
CREATE TRIGGER log_append_only_update BEFORE UPDATE ON log
BEGIN
	SELECT RAISE(ABORT, 'the command log is append-only');
END;
CREATE TRIGGER log_append_only_delete BEFORE DELETE ON log
BEGIN
	SELECT RAISE(ABORT, 'the command log is append-only');
END;

-- The game (engine.Game JSON) after the first seq commands of the log. A
-- cache: loading takes the latest one and replays the rest of the log.
CREATE TABLE snapshots (
	match_id INTEGER NOT NULL REFERENCES matches (id),
	seq      INTEGER NOT NULL CHECK (seq >= 1),
	game     TEXT    NOT NULL,
	PRIMARY KEY (match_id, seq)
);
