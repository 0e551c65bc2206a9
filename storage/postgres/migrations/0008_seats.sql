-- Who sits in which match under way (the SQLite store's 0007_seats.sql):
-- written when a match starts or is imported under way, deleted when it
-- closes; Seated lists a person's open matches through it.
CREATE TABLE seats (
	user_id  text   NOT NULL CHECK (user_id <> ''),
	match_id bigint NOT NULL REFERENCES matches (id),
	PRIMARY KEY (user_id, match_id)
);

CREATE INDEX seats_match ON seats (match_id);

INSERT INTO seats (user_id, match_id)
	SELECT DISTINCT s.value->>'id', m.id
	FROM matches m, json_array_elements(m.setup->'seats') s
	WHERE m.status = 2 AND coalesce(s.value->>'id', '') <> ''
	ON CONFLICT DO NOTHING;
