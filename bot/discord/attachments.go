package discord

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net/http"
	"time"

	"github.com/bwmarrin/discordgo"
	"github.com/riskbot/riskbot/bot/chat"
	"github.com/riskbot/riskbot/engine/mapfile"
)

// The files attached to a command (/risk-admin map add) are downloaded
// before the core sees it: from the address the interaction gives (the
// interaction is Discord's, signed or from the gateway), each bounded in
// size and time.

const (
	// maxAttachment bounds each file: a map's zip, the largest that a map
	// may be (mapfile.MaxZipBytes).
	maxAttachment = mapfile.MaxZipBytes
	// maxAttachments bounds the files of one command.
	maxAttachments = 3
	// attachmentWait bounds the download of each.
	attachmentWait = 30 * time.Second
)

// fileClient is the client that downloads attachments: through the REST
// client's transport (a test's fake Discord), without its rate limits,
// which are the API's, not the CDN's.
func fileClient(rest *http.Client) *http.Client {
	c := &http.Client{Timeout: attachmentWait}
	if rest != nil {
		c.Transport = rest.Transport
	}
	return c
}

// attachment returns the attachment of a command's data with this ID, or
// nil.
func attachment(d discordgo.ApplicationCommandInteractionData, id string) *discordgo.MessageAttachment {
	if d.Resolved == nil {
		return nil
	}
	return d.Resolved.Attachments[id]
}

// download fetches the files attached to a command, by option name.
func (a *Adapter) download(ctx context.Context, i *discordgo.Interaction) (map[string]chat.File, error) {
	d, ok := i.Data.(discordgo.ApplicationCommandInteractionData)
	if !ok {
		return nil, nil
	}
	sub, err := subcommand(i)
	if err != nil {
		return nil, err
	}
	var out map[string]chat.File
	for _, o := range sub.Options {
		if o.Type != discordgo.ApplicationCommandOptionAttachment {
			continue
		}
		at := attachment(d, value(o))
		if at == nil {
			return nil, fmt.Errorf("discord: the file of %s did not come with the command", o.Name)
		}
		if len(out) == maxAttachments {
			return nil, fmt.Errorf("discord: at most %d files", maxAttachments)
		}
		data, err := a.fetch(ctx, at)
		if err != nil {
			return nil, err
		}
		if out == nil {
			out = map[string]chat.File{}
		}
		out[o.Name] = chat.File{Name: at.Filename, Data: data}
	}
	return out, nil
}

// errTooLarge: an attachment is over maxAttachment.
var errTooLarge = errors.New("too large")

// fetch downloads one attachment, refusing one over maxAttachment before
// and while reading it.
func (a *Adapter) fetch(ctx context.Context, at *discordgo.MessageAttachment) ([]byte, error) {
	tooLarge := fmt.Errorf("discord: %s is %w: at most %d MB", at.Filename, errTooLarge, maxAttachment>>20)
	if at.Size > maxAttachment {
		return nil, tooLarge
	}
	ctx, cancel := context.WithTimeout(ctx, attachmentWait)
	defer cancel()
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, at.URL, nil)
	if err != nil {
		return nil, fmt.Errorf("discord: fetch %s: %w", at.Filename, err)
	}
	resp, err := a.files.Do(req)
	if err != nil {
		return nil, fmt.Errorf("discord: fetch %s: %w", at.Filename, err)
	}
	defer resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		return nil, fmt.Errorf("discord: fetch %s: %s", at.Filename, resp.Status)
	}
	data, err := io.ReadAll(io.LimitReader(resp.Body, maxAttachment+1))
	if err != nil {
		return nil, fmt.Errorf("discord: fetch %s: %w", at.Filename, err)
	}
	if len(data) > maxAttachment {
		return nil, tooLarge
	}
	return data, nil
}
