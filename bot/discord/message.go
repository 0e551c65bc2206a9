package discord

import (
	"bytes"
	"context"
	"fmt"
	"strconv"
	"strings"
	"unicode/utf16"
	"unicode/utf8"

	"github.com/bwmarrin/discordgo"
	"github.com/riskbot/riskbot/bot/chat"
	"github.com/riskbot/riskbot/bot/discord/snowflake"
)

// Discord's limits on what the adapter sends.
const (
	maxContent     = 2000 // characters of a message
	maxRows        = 5    // action rows of a message
	maxRowButtons  = 5    // buttons of a row
	maxCustomID    = 100  // characters of a custom_id
	maxLabel       = 80   // characters of a button label
	maxChoices     = 25   // autocomplete results
	maxChoiceText  = 100  // characters of a choice's name or value
	maxFiles       = 10   // files of a message
	maxMentionable = 100  // users in allowed_mentions
)

// prefix marks Discord's IDs in the core: "discord:1234".
const prefix = "discord:"

// outgoing is a bot.Message translated for Discord. The image, if any, is
// not rendered yet: rendering may be slow and must come after the
// interaction is acknowledged.
type outgoing struct {
	content    string
	components []discordgo.MessageComponent
	mentions   *discordgo.MessageAllowedMentions
	embeds     []*discordgo.MessageEmbed
	ephemeral  bool
	image      *chat.Image
	// cut says what had to change to fit Discord's limits, for the log.
	cut []string
}

// translate turns a core message into what Discord is sent: the markup
// rendered, the text and buttons cut to Discord's limits, and mentions
// restricted to the users the message names.
func translate(m chat.Message) outgoing {
	out := outgoing{ephemeral: m.Private, image: m.Image, mentions: allowedMentions(m.Mentions)}
	mk := chat.Markup{Mention: mentionOf, Channel: channelOf, Time: func(unix int64) string { return "<t:" + strconv.FormatInt(unix, 10) + ":R>" }}
	text := mk.Format(m.Text)
	if m.Embed != nil {
		e, cut := embedOf(mk, m.Embed, m.Image)
		out.embeds = []*discordgo.MessageEmbed{e}
		out.cut = append(out.cut, cut...)
	}
	if n := utf16Len(text); n > maxContent {
		out.cut = append(out.cut, fmt.Sprintf("text of %d characters cut to %d", n, maxContent))
		text = truncate(text, maxContent)
	}
	out.content = text
	var cut []string
	out.components, cut = components(m.Buttons)
	out.cut = append(out.cut, cut...)
	if strings.TrimSpace(out.content) == "" && out.image == nil && len(out.components) == 0 && len(out.embeds) == 0 {
		// Discord refuses an empty message; the core never means to send one.
		out.content = "…"
		out.cut = append(out.cut, "empty message")
	}
	return out
}

// Discord's limits on an embed.
const (
	maxEmbedTitle       = 256
	maxEmbedDescription = 4096
	maxEmbedFields      = 25
	maxFieldName        = 256
	maxFieldValue       = 1024
	maxEmbedFooter      = 2048
	maxEmbedTotal       = 6000
)

// imageName is the file name a message's image is attached under.
func imageName(im *chat.Image) string {
	if im == nil || im.Name == "" {
		return "map.png"
	}
	return im.Name
}

// embedOf turns the core's embed into Discord's, within its limits, with
// the message's image, if any, shown inside it.
func embedOf(mk chat.Markup, e *chat.Embed, im *chat.Image) (*discordgo.MessageEmbed, []string) {
	var cut []string
	fit := func(what, s string, limit int) string {
		s = mk.Format(s)
		if n := utf16Len(s); n > limit {
			cut = append(cut, fmt.Sprintf("embed %s of %d characters cut to %d", what, n, limit))
			s = truncate(s, limit)
		}
		return s
	}
	out := &discordgo.MessageEmbed{
		Title:       fit("title", e.Title, maxEmbedTitle),
		Description: fit("description", e.Description, maxEmbedDescription),
		Color:       e.Color,
	}
	total := utf16Len(out.Title) + utf16Len(out.Description)
	for i, f := range e.Fields {
		if i == maxEmbedFields {
			cut = append(cut, fmt.Sprintf("%d embed fields beyond %d", len(e.Fields)-maxEmbedFields, maxEmbedFields))
			break
		}
		name, value := fit("field name", f.Name, maxFieldName), fit("field value", f.Value, maxFieldValue)
		if strings.TrimSpace(name) == "" || strings.TrimSpace(value) == "" {
			continue // Discord refuses an empty field
		}
		total += utf16Len(name) + utf16Len(value)
		out.Fields = append(out.Fields, &discordgo.MessageEmbedField{Name: name, Value: value, Inline: f.Inline})
	}
	if e.Footer != "" {
		out.Footer = &discordgo.MessageEmbedFooter{Text: fit("footer", e.Footer, maxEmbedFooter)}
		total += utf16Len(out.Footer.Text)
	}
	if total > maxEmbedTotal {
		cut = append(cut, fmt.Sprintf("embed of %d characters: description cut", total))
		out.Description = truncate(out.Description, max(0, utf16Len(out.Description)-(total-maxEmbedTotal)))
	}
	if im != nil {
		out.Image = &discordgo.MessageEmbedImage{URL: "attachment://" + imageName(im)}
	}
	return out, cut
}

// mentionOf renders a user ID of the core as a Discord mention. IDs of
// other platforms (or of computer players) stay plain text.
func mentionOf(id string) string {
	if s, ok := strings.CutPrefix(id, prefix); ok && snowflake.Valid(s) {
		return "<@" + s + ">"
	}
	return id
}

// channelOf renders a channel ID of the core as a link to the channel.
func channelOf(id string) string {
	if s, ok := strings.CutPrefix(id, prefix); ok && snowflake.Valid(s) {
		return "<#" + s + ">"
	}
	return "a channel"
}

// allowedMentions lets the message notify exactly the Discord users
// listed, and nobody else: no @everyone, no roles, no one the text happens
// to mention.
func allowedMentions(ids []string) *discordgo.MessageAllowedMentions {
	am := &discordgo.MessageAllowedMentions{Parse: []discordgo.AllowedMentionType{}}
	seen := map[string]bool{}
	for _, id := range ids {
		s, ok := strings.CutPrefix(id, prefix)
		if !ok || !snowflake.Valid(s) || seen[s] || len(am.Users) == maxMentionable {
			continue
		}
		seen[s] = true
		am.Users = append(am.Users, s)
	}
	return am
}

// utf16Len counts UTF-16 code units. Discord counts characters as code
// points; an emoji is one code point but two units, so staying within
// the limit in units stays within it in code points too.
func utf16Len(s string) int {
	n := 0
	for _, r := range s {
		n += utf16.RuneLen(r)
	}
	return n
}

// truncate cuts text to at most limit UTF-16 units, at a line end if one is
// near, closes a code block left open, and marks the cut with an ellipsis.
func truncate(text string, limit int) string {
	const tail = "\n…"
	const fence = "\n```"
	budget := limit - utf16Len(tail) - utf16Len(fence)
	n, cut := 0, 0
	for cut < len(text) {
		r, size := utf8.DecodeRuneInString(text[cut:])
		w := utf16.RuneLen(r)
		if n+w > budget {
			break
		}
		n += w
		cut += size
	}
	s := text[:cut]
	if nl := strings.LastIndexByte(s, '\n'); nl > len(s)*3/4 {
		s = s[:nl]
	}
	if strings.Count(s, "```")%2 == 1 {
		s += fence
	}
	return s + tail
}

// components lays out the core's buttons in Discord's action rows, keeping
// to 5 rows of 5 and dropping buttons Discord would refuse (a missing or
// too long custom_id, or one used twice).
func components(rows [][]chat.Button) ([]discordgo.MessageComponent, []string) {
	var out []discordgo.MessageComponent
	var cut []string
	seen := map[string]bool{}
	for _, row := range rows {
		var buttons []discordgo.MessageComponent
		for _, b := range row {
			switch {
			case b.ID == "" || utf16Len(b.ID) > maxCustomID:
				cut = append(cut, fmt.Sprintf("button %q: custom_id of %d characters (1 to %d)", b.Label, utf16Len(b.ID), maxCustomID))
				continue
			case seen[b.ID]:
				cut = append(cut, fmt.Sprintf("button %q: custom_id %q used twice", b.Label, b.ID))
				continue
			case len(buttons) == maxRowButtons:
				cut = append(cut, fmt.Sprintf("button %q: more than %d in a row", b.Label, maxRowButtons))
				continue
			}
			seen[b.ID] = true
			label := b.Label
			if label == "" {
				label = "…"
			}
			if utf16Len(label) > maxLabel {
				label = truncateLabel(label, maxLabel)
			}
			buttons = append(buttons, discordgo.Button{CustomID: b.ID, Label: label, Style: buttonStyle(b.Style)})
		}
		if len(buttons) == 0 {
			continue
		}
		if len(out) == maxRows {
			cut = append(cut, fmt.Sprintf("a row of %d buttons: more than %d rows", len(buttons), maxRows))
			continue
		}
		out = append(out, discordgo.ActionsRow{Components: buttons})
	}
	return out, cut
}

func truncateLabel(s string, limit int) string {
	n := 0
	for i, r := range s {
		if n+utf16.RuneLen(r) > limit-1 {
			return s[:i] + "…"
		}
		n += utf16.RuneLen(r)
	}
	return s
}

func buttonStyle(s chat.ButtonStyle) discordgo.ButtonStyle {
	switch s {
	case chat.Primary:
		return discordgo.PrimaryButton
	case chat.Success:
		return discordgo.SuccessButton
	case chat.Danger:
		return discordgo.DangerButton
	}
	return discordgo.SecondaryButton
}

// flags are the message flags of the message.
func (o outgoing) flags() discordgo.MessageFlags {
	if o.ephemeral {
		return discordgo.MessageFlagsEphemeral
	}
	return 0
}

// render draws the image, if any, as the file to attach. If drawing fails
// the message goes without it, saying so.
func (o *outgoing) render(ctx context.Context) ([]*discordgo.File, error) {
	if o.image == nil {
		return nil, nil
	}
	png, err := o.image.PNG(ctx)
	if err != nil {
		if note := "\n(The map could not be drawn this time; /risk show status tries again.)"; utf16Len(o.content+note) <= maxContent {
			o.content += note
		}
		return nil, fmt.Errorf("discord: render %s: %w", o.image.Name, err)
	}
	name := imageName(o.image)
	contentType := "image/png"
	if strings.HasSuffix(name, ".gif") {
		contentType = "image/gif" // a replay
	}
	return []*discordgo.File{{Name: name, ContentType: contentType, Reader: bytes.NewReader(png)}}, nil
}

// response is the message as an immediate answer (callback type 4).
func (o outgoing) response() *discordgo.InteractionResponse {
	return &discordgo.InteractionResponse{
		Type: discordgo.InteractionResponseChannelMessageWithSource,
		Data: &discordgo.InteractionResponseData{
			Content: o.content, Components: o.components, Embeds: o.embeds, AllowedMentions: o.mentions, Flags: o.flags(),
		},
	}
}

// update is the message as the new content of the clicked message
// (callback type 7).
func (o outgoing) update(files []*discordgo.File) *discordgo.InteractionResponse {
	_, comps, embeds := o.replacing()
	return &discordgo.InteractionResponse{
		Type: discordgo.InteractionResponseUpdateMessage,
		Data: &discordgo.InteractionResponseData{
			Content: o.content, Components: comps, Embeds: embeds, AllowedMentions: o.mentions, Files: files,
		},
	}
}

// deferral acknowledges an interaction to answer later (callback type 5);
// the answer will be ephemeral or not as decided here.
func deferral(ephemeral bool) *discordgo.InteractionResponse {
	r := &discordgo.InteractionResponse{Type: discordgo.InteractionResponseDeferredChannelMessageWithSource}
	if ephemeral {
		r.Data = &discordgo.InteractionResponseData{Flags: discordgo.MessageFlagsEphemeral}
	}
	return r
}

// edit is the message as the edit of a deferred answer.
func (o outgoing) edit(files []*discordgo.File) *discordgo.WebhookEdit {
	content, comps, embeds := o.replacing()
	return &discordgo.WebhookEdit{Content: &content, Components: &comps, Embeds: &embeds, AllowedMentions: o.mentions, Files: files}
}

// replacing is the content, buttons and embeds of an edit: given even when
// empty, since a field left out of an edit keeps its old value.
func (o outgoing) replacing() (string, []discordgo.MessageComponent, []*discordgo.MessageEmbed) {
	comps := o.components
	if comps == nil {
		comps = []discordgo.MessageComponent{}
	}
	embeds := o.embeds
	if embeds == nil {
		embeds = []*discordgo.MessageEmbed{}
	}
	return o.content, comps, embeds
}

// editPost is the message as the new content of a channel message: its
// text, embed and buttons replaced, and its attachment too if it has an
// image (else the old one stays).
func (o outgoing) editPost(channel, id string, files []*discordgo.File) *discordgo.MessageEdit {
	content, comps, embeds := o.replacing()
	e := &discordgo.MessageEdit{ID: id, Channel: channel, Content: &content, Components: &comps, Embeds: &embeds, AllowedMentions: o.mentions, Files: files}
	if len(files) > 0 {
		e.Attachments = &[]*discordgo.MessageAttachment{}
	}
	return e
}

// followup is the message as a follow-up of an interaction.
func (o outgoing) followup(files []*discordgo.File) *discordgo.WebhookParams {
	return &discordgo.WebhookParams{Content: o.content, Components: o.components, Embeds: o.embeds, AllowedMentions: o.mentions, Flags: o.flags(), Files: files}
}

// send is the message as a new channel message.
func (o outgoing) send(files []*discordgo.File) *discordgo.MessageSend {
	return &discordgo.MessageSend{Content: o.content, Components: o.components, Embeds: o.embeds, AllowedMentions: o.mentions, Files: files}
}

// choices turns the core's suggestions into Discord's, within its limits:
// at most 25, names cut to 100 characters, and suggestions whose value is
// too long dropped (a cut value would be a different value).
func choices(cs []chat.Choice) ([]*discordgo.ApplicationCommandOptionChoice, []string) {
	out := []*discordgo.ApplicationCommandOptionChoice{}
	var cut []string
	for _, c := range cs {
		if len(out) == maxChoices {
			cut = append(cut, fmt.Sprintf("%d choices beyond %d", len(cs)-maxChoices, maxChoices))
			break
		}
		if c.Value == "" || utf16Len(c.Value) > maxChoiceText {
			cut = append(cut, fmt.Sprintf("choice value %q: 1 to %d characters", c.Value, maxChoiceText))
			continue
		}
		name := c.Name
		if strings.TrimSpace(name) == "" {
			name = c.Value
		}
		if utf16Len(name) > maxChoiceText {
			name = truncateLabel(name, maxChoiceText)
		}
		out = append(out, &discordgo.ApplicationCommandOptionChoice{Name: name, Value: c.Value})
	}
	return out, cut
}
