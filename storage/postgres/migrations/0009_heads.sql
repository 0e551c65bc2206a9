-- What every change of a match writes (its version, the length of its
-- log, the time of the change, the host's meta) moves out of the matches
-- row into a row of its own, so that a command updates that row only
-- (docs/performance.md, issue 33). PostgreSQL's cost of an UPDATE of the
-- matches row was not its width but what guards it: each execution
-- prepares every CHECK of the table again, queues the checks of the five
-- tables that reference it, and inserts into its indexes when the update
-- cannot stay on its page. A row of heads has no CHECK and one index, that
-- of its key, which no change touches: its updates stay on their page
-- (HOT). The matches row keeps what a match is (its channel, status and
-- setup) and its turn clock, which have the indexes, and changes only when
-- they do.
--
-- PostgreSQL's own layout (SQLite's matches table holds all of it, and
-- its updates cost nothing like this): the store joins the two tables to
-- read a match (storage.MatchColumns names columns of either).

-- One row per match, made with it. version counts every change to the
-- match (the optimistic lock: a change updates this row only if the
-- version is the one its writer read); commands is the length of its log.
CREATE TABLE heads (
	match_id     bigint  PRIMARY KEY REFERENCES matches (id),
	version      bigint  NOT NULL,
	commands     integer NOT NULL,
	updated_at   bigint  NOT NULL,
	meta         json
) WITH (fillfactor = 50);

INSERT INTO heads (match_id, version, commands, updated_at, meta)
	SELECT id, version, commands, updated_at, meta FROM matches;

-- A change released the claim on the match's timers by clearing it in
-- the matches row; a command no longer writes that row. A claim records
-- the version at which it was taken instead, and holds only while the
-- match is at that version (ClaimDue).
ALTER TABLE matches ADD COLUMN claim_version bigint;
UPDATE matches SET claim_version = version WHERE claim_holder IS NOT NULL;

-- Idle lobbies (IdleLobbies) are found among the lobbies, their times
-- read from heads.
DROP INDEX matches_idle_lobbies;
CREATE INDEX matches_lobbies ON matches (id) WHERE status = 1;

-- Dropping the columns drops the checks that name them (version >= 1,
-- commands >= 0, and the one of a match's status, setup and log); the
-- part of the last that is about the setup is checked again. A lobby's
-- empty log is no longer checked by the schema: only a save of an active
-- match (storage.Transition) appends to a log.
ALTER TABLE matches
	DROP COLUMN version,
	DROP COLUMN commands,
	DROP COLUMN updated_at,
	DROP COLUMN meta,
	ADD CONSTRAINT matches_setup CHECK (CASE status
		WHEN 1 THEN setup IS NULL
		WHEN 4 THEN true
		ELSE setup IS NOT NULL END);
