-- Claims: work that one process must do once, leased to it for a while, so
-- that several processes sharing the database never do it twice and a
-- dead process's work is taken over when its lease runs out. A claim
-- records its holder (a process's name), when it was taken (a holder
-- restarted under the same name takes back at once what it held before it
-- started) and when its lease ends. Times are Unix milliseconds.

-- A match's due timers, claimed by the process handling them
-- (DB.ClaimDue); any change to the match releases the claim.
ALTER TABLE matches ADD COLUMN claim_holder TEXT;
ALTER TABLE matches ADD COLUMN claim_at INTEGER;
ALTER TABLE matches ADD COLUMN claim_until INTEGER;

-- Queued posts, claimed by the process delivering them: the one whose
-- change queued them, or later one that found them left (DB.ClaimPosts).
ALTER TABLE outbox ADD COLUMN claim_holder TEXT;
ALTER TABLE outbox ADD COLUMN claim_at INTEGER;
ALTER TABLE outbox ADD COLUMN claim_until INTEGER;

-- Named leases on longer work, renewed by their holder while it lasts (a
-- channel's computer turns: DB.Lease).
CREATE TABLE leases (
	name   TEXT    PRIMARY KEY CHECK (name <> ''),
	holder TEXT    NOT NULL CHECK (holder <> ''),
	since  INTEGER NOT NULL,
	until  INTEGER NOT NULL
) WITHOUT ROWID;
