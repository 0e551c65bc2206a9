-- The requests that changed a match, by the key their chat gave them (the
-- SQLite store's 0003_requests.sql): a request delivered twice is applied
-- once (the second insert fails), and an answer that a crash lost between
-- the commit and the reply can be told to its author on their next command
-- (answered_at is still NULL).
CREATE TABLE requests (
	key         text   PRIMARY KEY CHECK (key <> ''),
	match_id    bigint NOT NULL REFERENCES matches (id),
	channel     text   NOT NULL,
	-- version is the match version that the request's change made.
	version     bigint NOT NULL CHECK (version >= 1),
	user_id     text   NOT NULL,
	-- summary is what was asked, result what it did: the host's text.
	summary     text   NOT NULL,
	result      text   NOT NULL,
	created_at  bigint NOT NULL,
	answered_at bigint
);

-- A user's latest request in a channel (LastRequest).
CREATE INDEX requests_user ON requests (channel, user_id, created_at);

-- Old requests are forgotten (ForgetRequests).
CREATE INDEX requests_created ON requests (created_at);
