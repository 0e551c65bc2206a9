package bot

import (
	"container/list"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"sync"

	"github.com/riskbot/riskbot/bot/hosted"

	"github.com/riskbot/riskbot/bot/news"

	"github.com/riskbot/riskbot/bot/chat"

	"github.com/riskbot/riskbot/state"
	"github.com/riskbot/riskbot/storage"
)

// A turn's public record is one message: posted when a person's turn
// starts (it pings them), edited as their commands come (their replies
// are private), and completed with the map when the turn ends. A computer's
// turn is posted once, complete. So a channel gets about one message a
// turn, and the map once.
//
// The message's ID on the platform is kept in the settings store (scope
// postScope) from its post to its completion, so that any process can
// edit it, after a restart too.

// postScope is the settings scope of the messages the bot edits later.
const postScope = "post"

// postedRef is where a living message is.
type postedRef struct {
	Channel string `json:"channel"`
	ID      string `json:"id"`
}

// posted returns the platform ID of the living message ref, if it was
// posted in channel.
func (b *Bot) posted(ctx context.Context, channel, ref string) (string, bool) {
	raw, err := b.cfg.Store.Setting(ctx, postScope, ref)
	if err != nil {
		if !errors.Is(err, storage.ErrNotFound) {
			b.cfg.Log.Warn("read where a turn's message is", "ref", ref, "err", err)
		}
		return "", false
	}
	var p postedRef
	if err := json.Unmarshal(raw, &p); err != nil || p.Channel != channel || p.ID == "" {
		return "", false
	}
	return p.ID, true
}

// remember keeps where the living message ref was posted; forget drops it.
func (b *Bot) remember(ctx context.Context, channel, ref, id string) {
	raw, _ := json.Marshal(postedRef{Channel: channel, ID: id})
	if err := b.cfg.Store.SetSetting(ctx, postScope, ref, raw, b.cfg.Now()); err != nil {
		b.cfg.Log.Warn("keep where a turn's message is", "ref", ref, "err", err)
	}
}

func (b *Bot) forget(ctx context.Context, ref string) {
	if err := b.cfg.Store.SetSetting(ctx, postScope, ref, nil, b.cfg.Now()); err != nil {
		b.cfg.Log.Warn("forget where a turn's message is", "ref", ref, "err", err)
	}
}

// sendRef sends a message that has a ref: an edit of the message posted
// for it, or a new post.
func (b *Bot) sendRef(ctx context.Context, channel string, m news.Post) error {
	ed, canEdit := b.cfg.Poster.(chat.Editor)
	if id, ok := b.posted(ctx, channel, m.Ref); ok && canEdit {
		m.Mentions = nil // an edit notifies nobody: say so to the chat
		m.Text = chat.Clip(m.Text)
		if err := ed.Edit(ctx, channel, id, m.Message); err != nil {
			if m.Mode != news.Complete || errors.Is(err, chat.ErrUndeliverable) {
				// The record of a turn is not worth a retry: the next edit
				// or the completion shows it all.
				b.cfg.Log.Warn("edit a turn's message", "channel", channel, "ref", m.Ref, "err", err)
				return nil
			}
			return err
		}
		if m.Mode == news.Complete {
			b.forget(ctx, m.Ref)
		}
		return nil
	}
	if m.Mode == news.EditOnly {
		return nil
	}
	id, err := b.postNew(ctx, channel, m.Message)
	if err != nil {
		return err
	}
	if m.Mode == news.PostOrEdit && id != "" && canEdit {
		b.remember(ctx, channel, m.Ref, id)
	}
	return nil
}

// mapCache keeps the maps drawn lately, by match, version and palette: a
// map of the same moment is drawn once, however many posts and /risk status
// show it.
type mapCache struct {
	mu    sync.Mutex
	max   int
	items map[mapKey]*list.Element
	order *list.List // of *mapEntry, most recent first
}

type mapKey struct {
	match, version int64
	palette        string
}

type mapEntry struct {
	key mapKey
	im  *chat.Image
}

func newMapCache(n int) *mapCache {
	return &mapCache{max: n, items: map[mapKey]*list.Element{}, order: list.New()}
}

// get returns the image of key, made by mk on the first ask.
func (c *mapCache) get(key mapKey, mk func() *chat.Image) *chat.Image {
	c.mu.Lock()
	defer c.mu.Unlock()
	if e, ok := c.items[key]; ok {
		c.order.MoveToFront(e)
		return e.Value.(*mapEntry).im
	}
	im := mk()
	c.items[key] = c.order.PushFront(&mapEntry{key, im})
	for c.order.Len() > c.max {
		last := c.order.Back()
		c.order.Remove(last)
		delete(c.items, last.Value.(*mapEntry).key)
	}
	return im
}

// cachedMaps is how many maps the bot keeps: a few per busy channel.
const cachedMaps = 64

// turnTitle names a turn: "Turn 7 — 🟥 Ann".
func (v voice) turnTitle(s *state.State, t news.TurnRecord) string {
	switch {
	case t.Turn == 0 && hosted.IsCapitals(s):
		return "Capital — " + v.who(s, t.Seat)
	case t.Turn == 0:
		return "Initial placement done"
	}
	return fmt.Sprintf("Turn %d — %s", t.Turn, v.who(s, t.Seat))
}

// maxDescription keeps an embed's description within Discord's 4096
// characters, with room for markup to grow.
const maxDescription = 3800

// turnEmbed is the card of a turn: its lines, and its numbers as fields.
func (v voice) turnEmbed(s *state.State, t news.TurnRecord, note string) *chat.Embed {
	e := &chat.Embed{Title: v.turnTitle(s, t), Color: v.color(t.Seat)}
	lines := t.Lines
	if note != "" {
		lines = append([]string{"*" + note + "*"}, lines...)
	}
	if len(lines) == 0 {
		lines = []string{"(nothing happened yet)"}
	}
	e.Description = fitLinesAs(lines, maxDescription, "… and %d more lines")
	st := t.Stats
	capitals := hosted.IsCapitals(s)
	if st.Income > 0 {
		unit := "armies"
		if capitals {
			unit = "troops"
		}
		e.Fields = append(e.Fields, chat.Field{Name: "Reinforcements", Value: fmt.Sprintf("%d %s", st.Income, unit), Inline: true})
	}
	if st.Traded > 0 {
		e.Fields = append(e.Fields, chat.Field{Name: "Cards traded", Value: fmt.Sprintf("+%d armies", st.Traded), Inline: true})
	}
	if st.Conquests > 0 {
		e.Fields = append(e.Fields, chat.Field{Name: "Conquests", Value: chat.Plural(st.Conquests, "territory", "territories"), Inline: true})
	}
	if len(st.Eliminated) > 0 {
		var names []string
		for _, i := range st.Eliminated {
			names = append(names, v.who(s, i))
		}
		e.Fields = append(e.Fields, chat.Field{Name: "Eliminated", Value: strings.Join(names, ", "), Inline: true})
	}
	return e
}

// turnPost is the completed record of a finished turn, with the map if
// withMap (the last turn of a change: the map shows the match as it is).
func (b *Bot) turnPost(m *hosted.Match, t news.TurnRecord, note string, withMap bool) news.Post {
	s := m.Game.State
	msg := news.Post{Message: chat.Message{Embed: b.voice(m).turnEmbed(s, t, note)}, Ref: news.PostRef(m.ID, t.Turn, t.Seat), Mode: news.Complete}
	if withMap {
		msg.Image = b.mapImage(m)
	}
	return msg
}

// livePost is the record of the turn in progress, if it has one: a
// person's turn (a computer's is posted when done), not the initial
// placement, which is secret until everyone has placed. Its text pings
// the player, with what to do now and the deadline.
func (b *Bot) livePost(m *hosted.Match) (news.Post, bool) {
	s := m.Game.State
	if s.Phase == state.PhaseOver || (s.Phase == state.PhaseSetup && !hosted.IsCapitals(s)) || m.IsBotSeat(s.Current) {
		return news.Post{}, false
	}
	t := news.TurnRecord{Turn: s.Turn, Seat: s.Current, Lines: m.Meta.Turn, Stats: m.Meta.Stats}
	if s.Phase == state.PhaseSetup {
		t.Turn = 0
	}
	v := b.voice(m)
	e := v.turnEmbed(s, t, "")
	if !m.Timers.Deadline.IsZero() {
		e.Fields = append(e.Fields, chat.Field{Name: "Deadline", Value: chat.Timestamp(m.Timers.Deadline), Inline: true})
	}
	e.Footer = "This message follows the turn as it is played."
	msg, _ := b.ping(m)
	msg.Text = b.withDigest(m, s.Current, msg.Text)
	msg.Embed = e
	msg.Ref = news.PostRef(m.ID, t.Turn, t.Seat)
	msg.Mode = news.PostOrEdit
	if !(s.Phase == state.PhaseReinforce && s.Seats[s.Current].Reserve > 0) {
		msg.Buttons = nil // placed: the button's moment is gone
	}
	return msg, true
}

// victoryPost announces the end of a match, with the map.
func (b *Bot) victoryPost(m *hosted.Match) news.Post {
	s := m.Game.State
	lines := strings.Split(b.victoryText(m), "\n")
	e := &chat.Embed{Title: "🏆 " + strings.Trim(lines[0], "🏆 *"), Color: b.voice(m).color(s.Winner)}
	e.Description = strings.Join(lines[1:len(lines)-1], "\n")
	if m.Luck != "" {
		e.Fields = append(e.Fields, chat.Field{Name: "Luck against the exact odds", Value: luckField(m.Luck)})
	}
	e.Fields = append(e.Fields, chat.Field{Name: "Fair dice", Value: b.revealText(m)})
	e.Footer = lines[len(lines)-1]
	return news.Post{Message: chat.Message{Embed: e, Image: b.mapImage(m)}}
}
