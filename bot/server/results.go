package server

import (
	"context"
	"encoding/json"
	"fmt"

	"github.com/riskbot/riskbot/bot/hosted"
	"github.com/riskbot/riskbot/engine/luck"
	"github.com/riskbot/riskbot/storage"
)

// When a match is won, the bot reveals the seed its commitment (posted at
// the start) stands for, tells each player's luck against the exact odds,
// and records the result for the server's leaderboard.

// ResultOf is the result of a finished match, from its stored data: its
// seats' places, for the leaderboards (a match outside any server counts
// for its channel).
func ResultOf(m storage.Match, x *storage.Export) (storage.Result, error) {
	var meta hosted.Meta
	if err := json.Unmarshal(x.Meta, &meta); err != nil {
		return storage.Result{}, fmt.Errorf("bot: the data of match %d: %w", m.ID, err)
	}
	ranking, err := x.Record.Ranking()
	if err != nil {
		return storage.Result{}, fmt.Errorf("bot: rank match %d: %w", m.ID, err)
	}
	server := meta.Server
	if server == "" {
		server = m.Channel
	}
	// The bot's own end time survives a copy to another database (risk
	// migrate, risk import), which closes the copy when it is made.
	ended := meta.Finished
	if ended.IsZero() {
		ended = m.Closed
	}
	r := storage.Result{Match: m.ID, Server: server, Rules: x.Record.Setup.Options.Rules, Ended: ended}
	for _, f := range ranking {
		level := ""
		if i := meta.Index(f.ID); i >= 0 {
			level = meta.Seats[i].Level
		}
		r.Seats = append(r.Seats, storage.ResultSeat{Player: f.ID, Level: level, Name: f.Name, Place: f.Place})
	}
	return r, nil
}

// RecordWin records the result of match m, just won and saved, and keeps
// its luck report for the victory post. Failures are logged: the match is
// won whatever the leaderboard says.
func (sv *Servers) RecordWin(ctx context.Context, m *hosted.Match) {
	x, err := sv.cfg.Store.Export(ctx, m.ID)
	if err != nil {
		sv.cfg.Log.Error("read a won match", "match", m.ID, "err", err)
		return
	}
	if rep, err := luck.Of(x.Record); err != nil {
		sv.cfg.Log.Error("the luck of a won match", "match", m.ID, "err", err)
	} else {
		m.Luck = rep.String()
	}
	r, err := ResultOf(m.Match, x)
	if err == nil {
		err = sv.cfg.Store.RecordResult(ctx, r)
	}
	if err != nil {
		sv.cfg.Log.Error("record the result of a won match", "match", m.ID, "err", err)
	}
}
