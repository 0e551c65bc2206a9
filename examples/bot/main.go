// Command bot is a small outside Risk bot for riskbot's JSON-lines protocol
// (docs/bot-protocol.md). It reads one request per line on standard input
// and answers each with one line on standard output. It imports nothing from
// riskbot: the protocol is all it needs.
//
// It plays both rule sets, simply and greedily. Classic: trade any set,
// put the whole reserve on its border territory with the most armies,
// blitz wherever it has at least two more armies than the target, move
// everything into a conquest, never fortify. Capitals: choose the capital
// with the most neutral neighbours, send every reinforcement to the
// capital, capture the neutral territory with the most troops while there
// is one, else plan the one attack with the biggest troop margin and
// launch it; never move, never use an item. Try it:
//
//	go build -o /tmp/bot ./examples/bot
//	risk tournament --players exec:/tmp/bot,easy,easy,easy --games 20
//	risk tournament --rules capitals --players exec:/tmp/bot,easy,easy,easy --games 20
package main

import (
	"bufio"
	"encoding/json"
	"fmt"
	"os"
)

// request is what the host sends; only the fields this bot uses.
type request struct {
	Type string `json:"type"`
	ID   int64  `json:"id"`
	Seat int    `json:"seat"`
	Map  *struct {
		Territories []struct {
			Name string `json:"name"`
			Adj  []int  `json:"adj"`
		} `json:"territories"`
	} `json:"map"`
	State struct {
		Options struct {
			Rules string `json:"rules"`
		} `json:"options"`
		Phase string `json:"phase"`
		Seats []struct {
			Reserve  int `json:"reserve"`
			Capitals struct {
				Capital int `json:"capital"` // the capital's index + 1; 0: none
			} `json:"capitals"`
		} `json:"seats"`
		Territories []struct {
			Owner  int `json:"owner"`
			Armies int `json:"armies"`
		} `json:"territories"`
	} `json:"state"`
	Legal []map[string]any `json:"legal"`
}

type reply struct {
	ID      int64          `json:"id"`
	Command map[string]any `json:"command"`
}

func main() {
	var adj [][]int // remembered from the first request
	in := bufio.NewScanner(os.Stdin)
	in.Buffer(make([]byte, 1<<20), 16<<20)
	out := json.NewEncoder(os.Stdout) // one JSON value per line
	for in.Scan() {
		var req request
		if err := json.Unmarshal(in.Bytes(), &req); err != nil {
			fmt.Fprintln(os.Stderr, "bot: bad request:", err)
			continue
		}
		if req.Map != nil {
			adj = adj[:0]
			for _, t := range req.Map.Territories {
				adj = append(adj, t.Adj)
			}
		}
		if err := out.Encode(reply{ID: req.ID, Command: choose(&req, adj)}); err != nil {
			os.Exit(1)
		}
	}
}

// choose picks a command; every choice is one of the legal commands, with
// an army count inside the listed range.
func choose(req *request, adj [][]int) map[string]any {
	terr := req.State.Territories
	byType := map[string][]map[string]any{}
	for _, c := range req.Legal {
		t, _ := c["type"].(string)
		byType[t] = append(byType[t], c)
	}
	if req.State.Options.Rules == "capitals" {
		return chooseCapitals(req, adj, byType)
	}
	if cs := byType["trade"]; len(cs) > 0 {
		return cs[0]
	}
	if cs := byType["place"]; len(cs) > 0 {
		best := cs[0]
		for _, c := range cs {
			t := num(c, "territory")
			if borders(adj, terr, t, req.Seat) && (!borders(adj, terr, num(best, "territory"), req.Seat) || terr[t].Armies > terr[num(best, "territory")].Armies) {
				best = c
			}
		}
		return map[string]any{"type": "place", "territory": best["territory"], "armies": req.State.Seats[req.Seat].Reserve}
	}
	if cs := byType["occupy"]; len(cs) > 0 {
		most := cs[0]
		for _, c := range cs {
			if num(c, "armies") > num(most, "armies") {
				most = c
			}
		}
		return most
	}
	var best map[string]any
	margin := 1
	for _, c := range byType["blitz"] {
		if num(c, "keep") != 1 {
			continue
		}
		if m := terr[num(c, "from")].Armies - terr[num(c, "to")].Armies; m > margin {
			best, margin = c, m
		}
	}
	if best != nil {
		return best
	}
	if cs := byType["discard"]; len(cs) > 0 {
		return cs[0]
	}
	return map[string]any{"type": "end"}
}

// num reads a number field of a command.
func num(c map[string]any, k string) int { f, _ := c[k].(float64); return int(f) }

// chooseCapitals plays a capitals match: every choice is one of the legal
// commands.
func chooseCapitals(req *request, adj [][]int, byType map[string][]map[string]any) map[string]any {
	terr := req.State.Territories
	most := func(cs []map[string]any, score func(map[string]any) int) map[string]any {
		best := cs[0]
		for _, c := range cs[1:] {
			if score(c) > score(best) {
				best = c
			}
		}
		return best
	}
	if cs := byType["capital"]; len(cs) > 0 {
		return most(cs, func(c map[string]any) int {
			t, n := num(c, "territory"), 0
			if t < len(adj) {
				for _, x := range adj[t] {
					if terr[x].Owner == -1 {
						n++
					}
				}
			}
			return n
		})
	}
	if cs := byType["reinforce"]; len(cs) > 0 {
		capital := req.State.Seats[req.Seat].Capitals.Capital - 1
		for _, c := range cs {
			if num(c, "territory") == capital {
				return c
			}
		}
		return cs[0]
	}
	if cs := byType["launch"]; len(cs) > 0 {
		return cs[0]
	}
	if cs := byType["capture"]; len(cs) > 0 {
		return most(cs, func(c map[string]any) int { return terr[num(c, "to")].Armies })
	}
	if cs := byType["plan"]; len(cs) > 0 {
		return most(cs, func(c map[string]any) int { return terr[num(c, "from")].Armies - terr[num(c, "to")].Armies })
	}
	return map[string]any{"type": "end"}
}

// borders reports whether territory t touches a territory seat does not own.
func borders(adj [][]int, terr []struct {
	Owner  int `json:"owner"`
	Armies int `json:"armies"`
}, t, seat int) bool {
	if t >= len(adj) {
		return false
	}
	for _, x := range adj[t] {
		if terr[x].Owner != seat {
			return true
		}
	}
	return false
}
