package bot

// The ping of a person's turn opens with what happened to them since
// their last turn, most important first: what they lost and to whom, the
// continents they no longer hold, the threats on their borders, and who
// leads.
