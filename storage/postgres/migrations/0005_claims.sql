-- Claims (the SQLite store's 0005_claims.sql): work that one process must
-- do once, leased to it for a while, so that several processes sharing the
-- database never do it twice and a dead process's work is taken over when
-- its lease runs out. A claim records its holder (a process's name), when
-- it was taken (a holder restarted under the same name takes back at once
-- what it held before it started) and when its lease ends. Claims are
-- taken with FOR UPDATE SKIP LOCKED: processes claiming at once get
-- different work instead of waiting on each other.

-- A match's due timers, claimed by the process handling them (ClaimDue);
-- any change to the match releases the claim.
ALTER TABLE matches ADD COLUMN claim_holder text;
ALTER TABLE matches ADD COLUMN claim_at bigint;
ALTER TABLE matches ADD COLUMN claim_until bigint;

-- Queued posts, claimed by the process delivering them (ClaimPosts).
ALTER TABLE outbox ADD COLUMN claim_holder text;
ALTER TABLE outbox ADD COLUMN claim_at bigint;
ALTER TABLE outbox ADD COLUMN claim_until bigint;

-- Named leases on longer work, renewed by their holder while it lasts (a
-- channel's computer turns: Lease).
CREATE TABLE leases (
	name   text   PRIMARY KEY CHECK (name <> ''),
	holder text   NOT NULL CHECK (holder <> ''),
	since  bigint NOT NULL,
	until  bigint NOT NULL
);
