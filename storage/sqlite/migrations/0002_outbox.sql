-- Messages to deliver after a change commits: the turn summaries, maps and
-- pings a change makes due. A change queues them in its own transaction, so
-- that a crash between the commit and the post loses nothing; the host
-- deletes them once delivered (DB.Delivered) and, after a restart, finds
-- the rest (DB.Outbox). body is the host's own JSON.
CREATE TABLE outbox (
	id         INTEGER PRIMARY KEY,
	match_id   INTEGER NOT NULL REFERENCES matches (id),
	-- version is the match version whose change queued the post.
	version    INTEGER NOT NULL CHECK (version >= 1),
	body       TEXT    NOT NULL CHECK (json_valid(body)),
	created_at INTEGER NOT NULL
);

CREATE INDEX outbox_match ON outbox (match_id, version);
