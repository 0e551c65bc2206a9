package web

import (
	"errors"
	"net/http"
	"regexp"
	"slices"
	"strings"

	"github.com/riskbot/riskbot/bot/chat"
	"github.com/riskbot/riskbot/bot/command"
	"github.com/riskbot/riskbot/bot/console"
)

// parseCommand reads a command typed in the page's box, the way Discord
// shows it: /risk SUBCOMMAND option:value ... (the console's syntax).
func parseCommand(line string) (string, map[string]string, error) {
	line = strings.TrimSpace(line)
	if !strings.HasPrefix(line, "/risk") {
		return "", nil, errors.New("commands start with /risk (try /risk help)")
	}
	l, err := console.ParseLine(line, "web")
	if err != nil {
		return "", nil, err
	}
	if l.Kind != console.Command {
		return "", nil, errors.New("commands start with /risk (try /risk help)")
	}
	return l.Command, l.Options, nil
}

// suggestion is one autocomplete choice: Label is shown (with Note under
// or beside it), Line is the command line it makes.
type suggestion struct {
	Label string `json:"label"`
	Note  string `json:"note,omitempty"`
	Line  string `json:"line"`
}

// lastOption finds the option being typed at the end of a line: its name
// and where its value starts.
var lastOption = regexp.MustCompile(`(?:^|\s)([a-z][a-z-]*):`)

// suggest lists the completions of a partial command line: subcommand
// names, then option names, then the legal values of the option being
// typed (Bot.Autocomplete: legal choices, best first).
func (pl *play) suggest(r *http.Request, channel string, user chat.User, line string) []suggestion {
	specs := pl.bot.Specs()
	trimmed := strings.TrimLeft(line, " ")
	out := []suggestion{}
	if !strings.HasPrefix(trimmed, "/risk ") {
		if strings.HasPrefix("/risk", trimmed) || trimmed == "/risk" {
			for _, sp := range specs {
				out = append(out, suggestion{Label: "/risk " + sp.FullName(), Note: sp.Description, Line: "/risk " + sp.FullName() + " "})
			}
		}
		return limitSuggestions(out)
	}
	rest := strings.TrimPrefix(trimmed, "/risk ")
	// Still typing the subcommand?
	var spec *command.Spec
	for i, sp := range specs {
		if strings.HasPrefix(rest, sp.FullName()+" ") || rest == sp.FullName()+" " {
			if spec == nil || len(sp.FullName()) > len(spec.FullName()) {
				spec = &specs[i]
			}
		}
	}
	if spec == nil {
		word := strings.ToLower(strings.TrimSpace(rest))
		for _, sp := range specs {
			if strings.HasPrefix(sp.FullName(), word) {
				out = append(out, suggestion{Label: "/risk " + sp.FullName(), Note: sp.Description, Line: "/risk " + sp.FullName() + " "})
			}
		}
		return limitSuggestions(out)
	}
	args := strings.TrimPrefix(rest, spec.FullName())
	head := "/risk " + spec.FullName()
	locs := lastOption.FindAllStringSubmatchIndex(args, -1)
	given := map[string]string{}
	if _, opts, err := parseCommand(line); err == nil {
		given = opts
	}
	typingValue := false
	var name, typed string
	var start int
	if len(locs) > 0 {
		loc := locs[len(locs)-1]
		name, start = args[loc[2]:loc[3]], loc[1]
		typed = args[start:]
		switch {
		case strings.HasPrefix(typed, `"`):
			inner := typed[1:]
			if i := strings.Index(inner, `"`); i >= 0 {
				typingValue = strings.TrimSpace(inner[i+1:]) != "" && !strings.HasSuffix(inner, " ")
			} else {
				typingValue = true
			}
			typed = strings.TrimSuffix(strings.TrimPrefix(typed, `"`), `"`)
		default:
			typingValue = !strings.HasSuffix(typed, " ")
		}
	}
	if typingValue {
		i := slices.IndexFunc(spec.Options, func(o command.Option) bool { return o.Name == name })
		if i < 0 {
			return out
		}
		opts := map[string]string{}
		for k, v := range given {
			opts[k] = v
		}
		opts[name] = strings.TrimSpace(typed)
		prefix := head + args[:start]
		if spec.Options[i].Autocomplete {
			req := chat.Request{Channel: channel, User: user, Command: spec.FullName(), Options: opts}
			for _, c := range pl.bot.Autocomplete(r.Context(), req, name) {
				out = append(out, suggestion{Label: c.Name, Line: prefix + quote(c.Value) + " "})
			}
		}
		for j, c := range spec.Options[i].Choices {
			if strings.HasPrefix(strings.ToLower(c), strings.ToLower(strings.TrimSpace(typed))) {
				note := ""
				if j < len(spec.Options[i].Labels) {
					note = strings.TrimPrefix(spec.Options[i].Labels[j], c+" — ")
				}
				out = append(out, suggestion{Label: c, Note: note, Line: prefix + quote(c) + " "})
			}
		}
		return limitSuggestions(out)
	}
	// Between options: offer those not given yet, required first.
	base := strings.TrimRight(line, " ") + " "
	for _, o := range spec.Options {
		if _, ok := given[o.Name]; ok || !pl.bot.Offered(r.Context(), channel, spec.FullName(), o.Name) {
			continue
		}
		note := o.Description
		if o.Required {
			note = "required — " + note
		}
		out = append(out, suggestion{Label: o.Name + ":", Note: note, Line: base + o.Name + ":"})
	}
	slices.SortStableFunc(out, func(a, b suggestion) int {
		ra, rb := strings.HasPrefix(a.Note, "required"), strings.HasPrefix(b.Note, "required")
		switch {
		case ra && !rb:
			return -1
		case rb && !ra:
			return 1
		}
		return 0
	})
	return limitSuggestions(out)
}

// quote puts a value with spaces in double quotes, as the parser wants.
func quote(v string) string {
	if strings.ContainsAny(v, " \t") {
		return `"` + v + `"`
	}
	return v
}

func limitSuggestions(s []suggestion) []suggestion {
	if len(s) > 25 {
		return s[:25]
	}
	return s
}

// complete answers the page's autocomplete: ?channel=&as=&line=.
func (pl *play) complete(w http.ResponseWriter, r *http.Request) {
	q := r.URL.Query()
	channel, ok := pl.checkChannel(w, q.Get("channel"))
	if !ok {
		return
	}
	line := q.Get("line")
	if len(line) > 1000 {
		problem(w, http.StatusBadRequest, "the line is too long")
		return
	}
	user := chat.User{}
	if as := q.Get("as"); as != "" {
		// Only a name the browser plays already: a GET claims nothing.
		if u := userIn(channel, as); pl.browsers.owns(pl.browsers.sessionOf(w, r), u.ID) {
			user = u
		}
	}
	writeJSON(w, http.StatusOK, map[string][]suggestion{"choices": pl.suggest(r, channel, user, line)})
}
