-- Who sits in which match under way (DB.Seated lists a person's matches
-- through it without reading every open match): the seats of a match are
-- written when it starts (Save with Change.Start, or Import of a match
-- under way) and deleted when it closes, so a person's rows are their
-- open matches only.
CREATE TABLE seats (
	user_id  TEXT    NOT NULL CHECK (user_id <> ''),
	match_id INTEGER NOT NULL REFERENCES matches (id),
	PRIMARY KEY (user_id, match_id)
) WITHOUT ROWID;

-- The seats a closing match empties.
CREATE INDEX seats_match ON seats (match_id);

-- The matches already under way.
INSERT OR IGNORE INTO seats (user_id, match_id)
	SELECT json_extract(s.value, '$.id'), m.id
	FROM matches m, json_each(m.setup, '$.seats') s
	WHERE m.status = 2 AND coalesce(json_extract(s.value, '$.id'), '') <> '';
