package server

import (
	"context"
	"errors"
	"fmt"
	"path"
	"strings"

	"github.com/riskbot/riskbot/bot/chat"
	"github.com/riskbot/riskbot/bot/command"
	"github.com/riskbot/riskbot/state"
	"github.com/riskbot/riskbot/storage"
)

// The admins' commands of a server's library: /risk-admin map add, list,
// show, rename and remove.

// AdminMapAdd answers /risk-admin map add: the map attached (a .zip of
// its files, or the .map with its two images), checked and added.
func (sv *Servers) AdminMapAdd(ctx context.Context, req chat.Request, a command.Args) (chat.Message, error) {
	if err := adminOnly(req); err != nil {
		return chat.Message{}, err
	}
	f, ok := req.Files["file"]
	if !ok {
		return chat.Message{}, chat.Refuse("Attach the map: a .zip of its three files, or its .map file with picture: and index:. (In a terminal: risk map import.)")
	}
	in := Import{Name: a.Str["name"], Mutual: a.Str["mutual"] == "on"}
	switch strings.ToLower(path.Ext(f.Name)) {
	case ".zip":
		in.Zip = f.Data
		for _, o := range []string{"picture", "index"} {
			if _, ok := req.Files[o]; ok {
				return chat.Message{}, chat.Refuse("A .zip holds the map's images already: leave %s: out, or attach the .map file instead of the zip.", o)
			}
		}
	case ".map":
		pic, ok1 := req.Files["picture"]
		idx, ok2 := req.Files["index"]
		if !ok1 || !ok2 {
			return chat.Message{}, chat.Refuse("A .map file comes with its two images: attach its picture (picture:) and its index image (index:), or one .zip of the three.")
		}
		in.Files.Map, in.Files.Picture, in.Files.Index = f.Data, pic.Data, idx.Data
	default:
		return chat.Message{}, chat.Refuse("%s is neither a .zip nor a .map file.", chat.Quote(f.Name))
	}
	m, b, err := sv.lib.Add(ctx, req.Server, in)
	if err != nil {
		return chat.Message{}, libraryRefusal(err)
	}
	by := ""
	if m.Author != "" {
		by = " by " + chat.Quote(m.Author)
	}
	return chat.Message{Text: fmt.Sprintf("Added **%s**%s to this server's maps: %s. Play it with /risk new map:%s",
		m.Name, by, facts(b.Map), m.Name)}, nil
}

// AdminMapList answers /risk-admin map list.
func (sv *Servers) AdminMapList(ctx context.Context, req chat.Request, _ command.Args) (chat.Message, error) {
	if req.Server == "" {
		return chat.Message{}, chat.Refuse("A library of maps belongs to a server.")
	}
	ms, err := sv.lib.List(ctx, req.Server)
	if err != nil {
		return chat.Message{}, err
	}
	if len(ms) == 0 {
		return chat.Private("This server has no maps of its own yet: add one with /risk-admin map add."), nil
	}
	lines := []string{fmt.Sprintf("This server's maps (%d), played with /risk new map:NAME:", len(ms))}
	for _, m := range ms {
		lines = append(lines, "• "+ListLine(m))
	}
	return chat.Private("%s", strings.Join(lines, "\n")), nil
}

// ListLine is a map of a library as a list shows it: its name, size and
// author.
func ListLine(m storage.LibraryMap) string {
	s := fmt.Sprintf("**%s**: %s", m.Name, chat.Plural(m.Territories, "territory", "territories"))
	if m.Author != "" {
		s += ", by " + chat.Quote(m.Author)
	}
	return s
}

// AdminMapShow answers /risk-admin map show: a map's continents and
// territories.
func (sv *Servers) AdminMapShow(ctx context.Context, req chat.Request, a command.Args) (chat.Message, error) {
	if req.Server == "" {
		return chat.Message{}, chat.Refuse("A library of maps belongs to a server.")
	}
	m, b, err := sv.lib.Find(ctx, req.Server, a.Str["name"])
	if err != nil {
		return chat.Message{}, libraryRefusal(err)
	}
	lines := []string{fmt.Sprintf("**%s** (%s)%s: %s, added %s.", m.Name, chat.Quote(m.Title), byline(m.Author), facts(b.Map), chat.Timestamp(m.Added))}
	for _, c := range b.Map.Continents {
		var names []string
		for _, t := range c.Territories {
			names = append(names, b.Map.Territories[t].Name)
		}
		lines = append(lines, fmt.Sprintf("**%s** (+%d): %s", c.Name, c.Bonus, strings.Join(names, ", ")))
	}
	msg := chat.Private("%s", chat.Clip(strings.Join(lines, "\n")))
	if sv.cfg.Preview != nil {
		msg.Image = sv.cfg.Preview(b.Map)
	}
	return msg, nil
}

// AdminMapRename answers /risk-admin map rename.
func (sv *Servers) AdminMapRename(ctx context.Context, req chat.Request, a command.Args) (chat.Message, error) {
	if err := adminOnly(req); err != nil {
		return chat.Message{}, err
	}
	m, err := sv.lib.Rename(ctx, req.Server, a.Str["name"], a.Str["to"])
	if err != nil {
		return chat.Message{}, libraryRefusal(err)
	}
	return chat.Message{Text: fmt.Sprintf("The map %s is now called **%s**: /risk new map:%s. Matches played on it keep it.", chat.Quote(a.Str["name"]), m.Name, m.Name)}, nil
}

// AdminMapRemove answers /risk-admin map remove.
func (sv *Servers) AdminMapRemove(ctx context.Context, req chat.Request, a command.Args) (chat.Message, error) {
	if err := adminOnly(req); err != nil {
		return chat.Message{}, err
	}
	m, err := sv.lib.Remove(ctx, req.Server, a.Str["name"])
	if err != nil {
		return chat.Message{}, libraryRefusal(err)
	}
	return chat.Message{Text: fmt.Sprintf("Removed **%s** from this server's maps. The matches played on it still replay.", m.Name)}, nil
}

// libraryRefusal words a library's refusal for the chat; other errors go
// up as they are.
func libraryRefusal(err error) error {
	var conflict *storage.MapConflictError
	var inUse *InUseError
	var read *MapError
	var name *NameError
	switch {
	case errors.As(err, &conflict) && conflict.Same:
		return chat.Refuse("This map is in this server's maps already, as **%s**: the same file is one map.", conflict.Name)
	case errors.As(err, &conflict):
		return chat.Refuse("This server has a map called **%s** already: choose another name (name:).", conflict.Name)
	case errors.As(err, &inUse):
		return chat.Refuse("**%s** is played by the match in %s: remove it once that match is over.", inUse.Name, chat.ChannelLink(inUse.Channel))
	case errors.As(err, &read):
		return chat.Refuse("%s", chat.Capitalize(read.Message()))
	case errors.As(err, &name):
		return chat.Refuse("%s.", chat.Capitalize(name.Msg))
	case errors.Is(err, storage.ErrNoMap):
		return chat.Refuse("This server has no map of that name: /risk-admin map list lists them.")
	}
	return err
}

func byline(author string) string {
	if author == "" {
		return ""
	}
	return " by " + chat.Quote(author)
}

// facts are a map's size as an answer gives it.
func facts(m *state.Map) string {
	return fmt.Sprintf("%s in %s, %s", chat.Plural(m.Len(), "territory", "territories"),
		chat.Plural(len(m.Continents), "continent", "continents"), chat.Plural(len(m.Borders()), "border", "borders"))
}
