package storage

// Head is a match's identity and version, read without its meta, setup or
// game: what says whether a match kept in memory is still the match in the
// database (the same id at the same version is the same match, byte for
// byte), at the cost of one indexed row.
type Head struct {
	ID      int64
	Channel string
	Status  Status
	Version int64
	// Commands is the length of the log.
	Commands int
}
