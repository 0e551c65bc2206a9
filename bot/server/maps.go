package server

import (
	"context"
	"errors"
	"fmt"
	"path"
	"strings"

	"github.com/riskbot/riskbot/assets/lang"

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
		return chat.Message{}, chat.RefuseMsg("server.map.attach")
	}
	in := Import{Name: a.Str["name"], Mutual: a.Str["mutual"] == "on"}
	switch strings.ToLower(path.Ext(f.Name)) {
	case ".zip":
		in.Zip = f.Data
		for _, o := range []string{"picture", "index"} {
			if _, ok := req.Files[o]; ok {
				return chat.Message{}, chat.RefuseMsg("server.map.zip-images", "Option", lang.Text(o))
			}
		}
	case ".map":
		pic, ok1 := req.Files["picture"]
		idx, ok2 := req.Files["index"]
		if !ok1 || !ok2 {
			return chat.Message{}, chat.RefuseMsg("server.map.images")
		}
		in.Files.Map, in.Files.Picture, in.Files.Index = f.Data, pic.Data, idx.Data
	default:
		return chat.Message{}, chat.RefuseMsg("server.map.kind", "File", lang.Text(chat.Quote(f.Name)))
	}
	m, b, err := sv.lib.Add(ctx, req.Server, in)
	if err != nil {
		return chat.Message{}, libraryRefusal(err)
	}
	pub := publicOf(req)
	return chat.Message{Text: pub.T("server.map.added", "Name", lang.Text(m.Name), "By", byline(m.Author), "Facts", facts(b.Map))}, nil
}

// AdminMapList answers /risk-admin map list.
func (sv *Servers) AdminMapList(ctx context.Context, req chat.Request, _ command.Args) (chat.Message, error) {
	if req.Server == "" {
		return chat.Message{}, chat.RefuseMsg("server.map.no-server")
	}
	ms, err := sv.lib.List(ctx, req.Server)
	if err != nil {
		return chat.Message{}, err
	}
	p := readerOf(req)
	if len(ms) == 0 {
		return chat.Private("%s", p.T("server.map.list-none")), nil
	}
	lines := []string{p.T("server.map.list", "Count", len(ms))}
	for _, m := range ms {
		lines = append(lines, "• "+p.Msg(ListLine(m)))
	}
	return chat.Private("%s", strings.Join(lines, "\n")), nil
}

// ListLine is a map of a library as a list shows it: its name, size and
// author.
func ListLine(m storage.LibraryMap) lang.Msg {
	return lang.M("server.map.line", "Name", lang.Text(m.Name), "Territories", lang.M("server.n.territories", "Count", m.Territories), "By", byline(m.Author))
}

// AdminMapShow answers /risk-admin map show: a map's continents and
// territories.
func (sv *Servers) AdminMapShow(ctx context.Context, req chat.Request, a command.Args) (chat.Message, error) {
	if req.Server == "" {
		return chat.Message{}, chat.RefuseMsg("server.map.no-server")
	}
	m, b, err := sv.lib.Find(ctx, req.Server, a.Str["name"])
	if err != nil {
		return chat.Message{}, libraryRefusal(err)
	}
	p := readerOf(req)
	lines := []string{p.T("server.map.show", "Name", lang.Text(m.Name), "Title", lang.Text(chat.Quote(m.Title)), "By", byline(m.Author), "Facts", facts(b.Map), "Added", lang.Text(chat.Timestamp(m.Added)))}
	for _, c := range b.Map.Continents {
		var names []string
		for _, t := range c.Territories {
			names = append(names, b.Map.Territories[t].Name)
		}
		lines = append(lines, fmt.Sprintf("**%s** (+%d): %s", c.Name, c.Bonus, strings.Join(names, ", ")))
	}
	msg := chat.Private("%s", chat.Clip(strings.Join(lines, "\n")))
	if sv.cfg.Preview != nil {
		msg.Image = sv.cfg.Preview(b.Map, p.Tag())
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
	return chat.Message{Text: publicOf(req).T("server.map.renamed", "Old", lang.Text(chat.Quote(a.Str["name"])), "Name", lang.Text(m.Name))}, nil
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
	return chat.Message{Text: publicOf(req).T("server.map.removed", "Name", lang.Text(m.Name))}, nil
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
		return chat.RefuseMsg("server.map.same", "Name", lang.Text(conflict.Name))
	case errors.As(err, &conflict):
		return chat.RefuseMsg("server.map.name-taken", "Name", lang.Text(conflict.Name))
	case errors.As(err, &inUse):
		return chat.RefuseMsg("server.map.in-use", "Name", lang.Text(inUse.Name), "Channel", lang.Text(chat.ChannelLink(inUse.Channel)))
	case errors.As(err, &read):
		return chat.RefuseMsg("server.map.unreadable", "Reason", lang.Text(read.Message()))
	case errors.As(err, &name):
		return chat.RefuseMsg("hosted.sentence", "Reason", name)
	case errors.Is(err, storage.ErrNoMap):
		return chat.RefuseMsg("server.map.none")
	}
	return err
}

// byline is " by AUTHOR", or nothing for a map without an author.
func byline(author string) lang.Msg {
	if author == "" {
		return lang.Msg{}
	}
	return lang.M("server.map.by", "Author", lang.Text(chat.Quote(author)))
}

// facts are a map's size as an answer gives it.
func facts(m *state.Map) lang.Msg {
	return lang.M("server.map.facts", "Territories", lang.M("server.n.territories", "Count", m.Len()),
		"Continents", lang.M("server.n.continents", "Count", len(m.Continents)), "Borders", lang.M("server.n.borders", "Count", len(m.Borders())))
}
