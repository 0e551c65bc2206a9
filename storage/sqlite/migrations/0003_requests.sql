-- The requests that changed a match, by the key their chat gave them (a
-- Discord interaction's id), stored in the change's own transaction:
-- a request delivered twice is applied once (the second insert fails), and
-- an answer that a crash lost between the commit and the reply can be told
-- to its author on their next command (answered_at is still NULL).
CREATE TABLE requests (
	key         TEXT    PRIMARY KEY CHECK (key <> ''),
	match_id    INTEGER NOT NULL REFERENCES matches (id),
	channel     TEXT    NOT NULL,
	-- version is the match version that the request's change made.
	version     INTEGER NOT NULL CHECK (version >= 1),
	user_id     TEXT    NOT NULL,
	-- summary is what was asked ("/risk attack from:Alaska to:Kamchatka"),
	-- result what it did, as its author was to be told; both the host's text.
	summary     TEXT    NOT NULL,
	result      TEXT    NOT NULL,
	created_at  INTEGER NOT NULL,
	answered_at INTEGER
) WITHOUT ROWID;

-- A user's latest request in a channel (DB.LastRequest).
CREATE INDEX requests_user ON requests (channel, user_id, created_at);

-- Old requests are forgotten (DB.ForgetRequests).
CREATE INDEX requests_created ON requests (created_at);
