// Package console is the terminal adapter of the bot: it reads slash
// commands typed as text, the way Discord displays them,
//
//	Ann: /risk attack from:Alaska to:Kamchatka until:win
//
// and prints the bot's replies, saving each map to a folder. It runs the
// very same code path as the Discord adapter, so whole matches can be
// played, demonstrated and tested in a transcript.
package console

import (
	"bufio"
	"cmp"
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"sync"
	"time"
	"unicode"

	"github.com/riskbot/riskbot/assets/lang"
	"github.com/riskbot/riskbot/bot"
	"github.com/riskbot/riskbot/bot/chat"
	"github.com/riskbot/riskbot/bot/command"
)

// Console runs transcript lines against a bot and prints what it says.
type Console struct {
	// Channel is the channel the lines are typed in ("console:NAME").
	Channel string
	// Images is the folder maps are written to, each channel's in a folder
	// of its own; empty skips them.
	Images string
	// KeepMaps is how many of a channel's maps are kept: older ones are
	// deleted as new ones come (DefaultKeepMaps if zero; negative keeps
	// all).
	KeepMaps int
	// Name is the player of lines that do not say who types them.
	Name string
	// Lang is the language typed in ("fr"): the players' and the new
	// matches'; empty for English.
	Lang string
	Now  func() time.Time

	bot *bot.Bot
	out io.Writer

	// run tells this console's requests from those of earlier runs, for
	// their keys; lines counts the lines run.
	run   int64
	lines int

	mu      sync.Mutex
	buttons []chat.Button // of the last message that had any
	names   map[string]string
}

// New returns a console writing to out. Attach the bot with SetBot (the bot
// needs the console as its Poster first).
func New(out io.Writer, channel, images string) *Console {
	return &Console{Channel: channel, Images: images, Name: "You", Now: time.Now, out: out, names: map[string]string{}, run: time.Now().UnixNano()}
}

// SetBot attaches the bot the console talks to.
func (c *Console) SetBot(b *bot.Bot) { c.bot = b }

// server is the one server of the console: whoever types at it runs it,
// so everyone is its admin (Request.Admin).
const server = "console"

// pagePrefix starts the channels of the web page (risk web), whose matches
// the console plays too (--channel web:NAME), as the page's players
// ("web:ann"), in the page's server ("web"): the same seats, the same
// server's rules.
const pagePrefix = "web:"

// userID is the console's identity for a player name: "console:ann", or
// "web:ann" in a channel of the page.
func (c *Console) userID(name string) string {
	if strings.HasPrefix(c.Channel, pagePrefix) {
		return pagePrefix + strings.ToLower(name)
	}
	return "console:" + strings.ToLower(name)
}

// server is the server of the console's channel: the console's, or the
// page's for a channel of the page.
func (c *Console) server() string {
	if strings.HasPrefix(c.Channel, pagePrefix) {
		return "web"
	}
	return server
}

// afterPrefix is a user's or channel's ID without its platform
// ("console:ann", "web:ann": "ann").
func afterPrefix(id string) string {
	if _, rest, ok := strings.Cut(id, ":"); ok {
		return rest
	}
	return id
}

// Run reads lines from in until it ends. With prompt, it shows a prompt
// before each line (interactive use). A line too long to be a command is
// skipped, saying so: the transcript goes on.
func (c *Console) Run(ctx context.Context, in io.Reader, prompt bool) error {
	// A command typed last time may have been applied without its answer
	// showing (the console was closed or killed): say what it was first,
	// so that nobody types it again.
	if text, ok, err := c.bot.LastApplied(ctx, c.Channel, lang.FromLocale(c.Lang)); err != nil {
		c.printf("  ! %v\n", err)
	} else if ok {
		c.show(ctx, chat.Message{Text: text}, "")
	}
	c.catchUp(ctx, true)
	r := bufio.NewReaderSize(in, 64*1024)
	for n := 1; ; n++ {
		if prompt {
			fmt.Fprintf(c.out, "%s> ", c.Name)
		}
		line, size, err := readLine(r, maxLine)
		if errors.Is(err, io.EOF) && size == 0 {
			return nil
		}
		if err != nil && !errors.Is(err, io.EOF) {
			return fmt.Errorf("console: read line %d: %w", n, err)
		}
		if cerr := ctx.Err(); cerr != nil {
			return cerr
		}
		if size > maxLine {
			c.printf("  ! line %d is too long (%d bytes; a command has at most %d): skipped\n", n, size, maxLine)
		} else if lerr := c.Line(ctx, line, !prompt); lerr != nil {
			return lerr
		}
		if errors.Is(err, io.EOF) {
			return nil
		}
	}
}

// readLine reads a line (without its end of line, \n or \r\n) and its
// length in bytes. Only the first max+1 bytes are kept: a longer line is
// read to its end and dropped, however long, so that it takes no memory.
// err is io.EOF at the end of the input, with or after the last line.
func readLine(r *bufio.Reader, max int) (line string, size int, err error) {
	var buf []byte
	var last byte // the last byte of the line, to drop a \r before the \n
	for {
		chunk, err := r.ReadSlice('\n')
		end := len(chunk) > 0 && chunk[len(chunk)-1] == '\n'
		data := chunk
		if end {
			data = chunk[:len(chunk)-1]
		}
		if len(data) > 0 {
			last = data[len(data)-1]
		}
		size += len(data)
		if len(buf) <= max {
			buf = append(buf, data[:min(len(data), max+1-len(buf))]...)
		}
		if errors.Is(err, bufio.ErrBufferFull) {
			continue
		}
		if end && last == '\r' && size > 0 {
			size--
			if len(buf) > size {
				buf = buf[:size]
			}
		}
		return string(buf), size, err
	}
}

// Line runs one line: a command, a button click, or a comment. echo prints
// the line first, as in a transcript. Mistakes in the line are answered, not
// returned; the error is only for failures to write.
func (c *Console) Line(ctx context.Context, line string, echo bool) error {
	l, err := ParseLine(line, c.Name)
	if echo && strings.TrimSpace(line) != "" {
		c.printf("%s\n", strings.TrimRight(line, " \t\r"))
	}
	if err != nil {
		c.printf("  ! %s\n", err)
		return nil
	}
	switch l.Kind {
	case Blank, Comment:
		return nil
	case Name:
		c.Name = l.User
		c.printf("  (you are %s now)\n", l.User)
		return nil
	}
	// What fell due while nobody typed happens first: a deadline passed
	// meanwhile is handled before the command that comes after it.
	c.catchUp(ctx, false)
	c.mu.Lock()
	c.names[c.userID(l.User)] = l.User
	c.mu.Unlock()
	user := chat.User{ID: c.userID(l.User), Name: l.User}
	c.lines++
	key := fmt.Sprintf("%s/%d/%d", c.Channel, c.run, c.lines)
	r := chat.ReplierFunc(func(ctx context.Context, m chat.Message) error {
		c.show(ctx, m, user.Name)
		return nil
	})
	switch l.Kind {
	case Click:
		id, label, ok := c.button(l.Button)
		if !ok {
			c.printf("  ! no button %q on the last message with buttons\n", l.Button)
			return nil
		}
		err = c.bot.HandleClick(ctx, chat.Click{Channel: c.Channel, User: user, ID: id, Label: label, Key: key, Server: c.server(), Admin: true, Locale: c.Lang, GuildLocale: c.Lang}, r)
	default:
		command.People(c.bot.Specs(), l.Command, l.Options, func(name string) string {
			c.mu.Lock()
			defer c.mu.Unlock()
			if _, known := c.names[c.userID(name)]; !known {
				c.names[c.userID(name)] = name // to show them by name until they type
			}
			return c.userID(name)
		})
		err = c.bot.Handle(ctx, chat.Request{Channel: c.Channel, User: user, Command: l.Command, Options: l.Options, Key: key, Server: c.server(), Admin: true, Locale: c.Lang, GuildLocale: c.Lang}, r)
	}
	if err != nil {
		return err
	}
	// Let the bot seats play before the next line, so a transcript reads in
	// order and replays the same.
	c.bot.Wait()
	return nil
}

// catchUp does what the channel's clock made due (reminders, deadlines,
// news a crash left unposted) and, when the console starts, sets the
// computer players due to play going: a console closed or killed while
// they played left them waiting. It then lets them play, so that a
// transcript reads in order.
func (c *Console) catchUp(ctx context.Context, starting bool) {
	if err := c.bot.Tick(ctx); err != nil {
		c.printf("  ! %v\n", err)
	}
	if starting {
		if err := c.bot.Resume(ctx); err != nil {
			c.printf("  ! %v\n", err)
		}
	}
	c.bot.Wait()
}

// button finds a button of the last message by its label (or a prefix).
func (c *Console) button(label string) (id, full string, ok bool) {
	c.mu.Lock()
	defer c.mu.Unlock()
	for _, b := range c.buttons {
		if strings.EqualFold(b.Label, label) {
			return b.ID, b.Label, true
		}
	}
	for _, b := range c.buttons {
		if strings.HasPrefix(strings.ToLower(b.Label), strings.ToLower(label)) {
			return b.ID, b.Label, true
		}
	}
	return "", "", false
}

// Post implements bot.Poster: a message not answering a command.
// A terminal cannot change what it printed: the console is no
// bot.Editor, so a turn's record shows when the turn starts and again,
// complete, when it ends.
func (c *Console) Post(ctx context.Context, _ string, m chat.Message) (string, error) {
	c.show(ctx, m, "")
	return "", nil
}

// DM implements bot.DirectPoster: a message to one person, shown as such.
func (c *Console) DM(ctx context.Context, user string, m chat.Message) error {
	c.mu.Lock()
	name, ok := c.names[user]
	c.mu.Unlock()
	if !ok {
		name = afterPrefix(user)
	}
	m.Private = false
	c.show(ctx, m, "@"+name)
	return nil
}

// show prints a message; to is who sent the command (for private replies).
func (c *Console) show(ctx context.Context, m chat.Message, to string) {
	c.mu.Lock()
	now := c.Now()
	body := m.Text
	if m.Embed != nil {
		// A card prints as its text, under the message's.
		body = strings.TrimSpace(body + "\n" + m.Embed.Text())
	}
	text := chat.Markup{
		Mention: func(id string) string {
			if n, ok := c.names[id]; ok {
				return "@" + n
			}
			return "@" + afterPrefix(id)
		},
		Named:   func(_, name string) string { return "@" + name },
		Channel: func(id string) string { return "#" + afterPrefix(id) },
		Time:    chat.PlainTimeIn(now, lang.FromLocale(c.Lang)),
	}.Format(body)
	c.mu.Unlock()
	text = plain(text)
	head := "  bot: "
	switch {
	case strings.HasPrefix(to, "@"):
		head = fmt.Sprintf("  bot (to %s, directly): ", to)
	case m.Private && to == "You":
		head = "  bot (only you see this): "
	case m.Private:
		head = fmt.Sprintf("  bot (only %s sees this): ", to)
	}
	indent := strings.Repeat(" ", 7)
	c.printf("%s%s\n", head, strings.ReplaceAll(text, "\n", "\n"+indent))
	if len(m.Buttons) > 0 {
		var labels []string
		c.mu.Lock()
		c.buttons = nil
		for _, row := range m.Buttons {
			for _, b := range row {
				labels = append(labels, "["+b.Label+"]")
				c.buttons = append(c.buttons, b)
			}
		}
		c.mu.Unlock()
		c.printf("%sbuttons: %s  (click with: /click LABEL)\n", indent, strings.Join(labels, " "))
	}
	if m.Image != nil && c.Images != "" {
		png, err := m.Image.PNG(ctx)
		if err != nil {
			c.printf("%s(the map could not be drawn: %v)\n", indent, err)
			return
		}
		path, err := c.saveMap(png, m.Image.Name)
		if path == "" {
			c.printf("%s(the map could not be saved: %v)\n", indent, err)
			return
		}
		c.printf("%smap: %s\n", indent, path)
		if err != nil {
			c.printf("%s(%v)\n", indent, err)
		}
	}
}

// DefaultKeepMaps is how many maps of a channel the console keeps.
const DefaultKeepMaps = 50

// saveMap writes a map to the channel's folder under Images, numbered on
// from the files already there (so that a console started again, or
// another one on the same channel, adds to them rather than overwriting
// them), and deletes the channel's oldest maps beyond KeepMaps. A failure
// to delete is returned with the path of the map saved.
func (c *Console) saveMap(png []byte, name string) (string, error) {
	c.mu.Lock()
	defer c.mu.Unlock()
	dir := filepath.Join(c.Images, folderName(c.Channel))
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return "", err
	}
	files, err := numbered(dir)
	if err != nil {
		return "", err
	}
	n := 1
	if len(files) > 0 {
		n = files[len(files)-1].n + 1
	}
	var path string
	for ; ; n++ {
		path = filepath.Join(dir, fmt.Sprintf("%06d-%s", n, filepath.Base(name)))
		f, err := os.OpenFile(path, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o644)
		if errors.Is(err, fs.ErrExist) {
			continue // another console took the number
		}
		if err != nil {
			return "", err
		}
		_, err = f.Write(png)
		if cerr := f.Close(); err == nil {
			err = cerr
		}
		if err != nil {
			return "", err
		}
		break
	}
	keep := c.KeepMaps
	if keep == 0 {
		keep = DefaultKeepMaps
	}
	if keep > 0 {
		files = append(files, mapFile{n, path})
		for _, f := range files[:max(0, len(files)-keep)] {
			if err := os.Remove(f.path); err != nil && !errors.Is(err, fs.ErrNotExist) {
				return path, fmt.Errorf("remove an old map: %w", err)
			}
		}
	}
	return path, nil
}

// mapFile is a saved map and its number.
type mapFile struct {
	n    int
	path string
}

// numbered lists the maps of a channel's folder (NNNNNN-NAME.png), by
// number.
func numbered(dir string) ([]mapFile, error) {
	entries, err := os.ReadDir(dir)
	if err != nil {
		return nil, err
	}
	var out []mapFile
	for _, e := range entries {
		num, _, ok := strings.Cut(e.Name(), "-")
		n, err := strconv.Atoi(num)
		if !ok || err != nil || n < 1 || e.IsDir() || !strings.HasSuffix(e.Name(), ".png") {
			continue
		}
		out = append(out, mapFile{n, filepath.Join(dir, e.Name())})
	}
	slices.SortFunc(out, func(a, b mapFile) int { return cmp.Compare(a.n, b.n) })
	return out, nil
}

// folderName turns a channel ("console:main") into a folder name of
// letters, digits, '-' and '_' only: nothing a channel is called can reach
// outside the maps folder.
func folderName(channel string) string {
	name := strings.TrimPrefix(channel, "console:")
	name = strings.Map(func(r rune) rune {
		if r < 128 && (unicode.IsLetter(r) || unicode.IsDigit(r) || r == '-' || r == '_') {
			return r
		}
		return '_'
	}, name)
	if name == "" || strings.Trim(name, "_") == "" {
		return "channel"
	}
	return name
}

// plain drops the chat markdown a terminal would show as is: bold markers
// and code-block fences.
func plain(text string) string {
	text = strings.ReplaceAll(text, "**", "")
	lines := strings.Split(text, "\n")
	kept := lines[:0]
	for _, l := range lines {
		if strings.TrimSpace(l) != "```" {
			kept = append(kept, strings.ReplaceAll(l, "`", ""))
		}
	}
	return strings.Join(kept, "\n")
}

func (c *Console) printf(format string, args ...any) {
	c.mu.Lock()
	defer c.mu.Unlock()
	fmt.Fprintf(c.out, format, args...)
}
