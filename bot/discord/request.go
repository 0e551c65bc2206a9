package discord

import (
	"cmp"
	"errors"
	"fmt"
	"slices"
	"strconv"

	"github.com/bwmarrin/discordgo"
	"github.com/riskbot/riskbot/assets/lang"
	"github.com/riskbot/riskbot/bot/chat"
	"github.com/riskbot/riskbot/bot/command"
)

// errNotRisk: the interaction is for a command that is not /risk (a stale
// registration, or another app's fixture).
var errNotRisk = errors.New("discord: not a /risk command")

// errNoUser: the interaction says of nobody that they sent it (Discord puts
// them in member.user in a server, in user in a DM).
var errNoUser = errors.New("discord: the interaction names no user")

// Commands builds the slash commands from the core's subcommands: /risk,
// with its plain subcommands and its groups (host, show, me), and
// /risk-admin with the group "admin"'s, each a subcommand of its own;
// required options first. global adds what only global commands take:
// they are offered in servers, not in DMs. /risk-admin is shown only to
// members who may manage the server (admins can let others see it in the
// server's settings, Integrations); the core checks the permission anyway.
func Commands(specs []command.Spec, global bool) []*discordgo.ApplicationCommand {
	manage := int64(discordgo.PermissionManageGuild)
	cmds := map[string]*discordgo.ApplicationCommand{}
	var out []*discordgo.ApplicationCommand
	top := func(name string) *discordgo.ApplicationCommand {
		if c, ok := cmds[name]; ok {
			return c
		}
		c := &discordgo.ApplicationCommand{
			Type:        discordgo.ChatApplicationCommand,
			Name:        name,
			Description: command.Describe(lang.Printer{}, name),
			Options:     []*discordgo.ApplicationCommandOption{},
		}
		if d := localized(c.Description, func(p lang.Printer) string { return command.Describe(p, name) }); d != nil {
			c.DescriptionLocalizations = &d
		}
		if name == command.AdminCommandName {
			c.DefaultMemberPermissions = &manage
		}
		if global {
			c.Contexts = &[]discordgo.InteractionContextType{discordgo.InteractionContextGuild}
			if name == command.CommandName {
				// In the bot's DMs, /risk me games lists a player's matches
				// across servers, and /risk help answers (inDM): nothing
				// else is played there.
				c.Contexts = &[]discordgo.InteractionContextType{discordgo.InteractionContextGuild, discordgo.InteractionContextBotDM}
			}
			c.IntegrationTypes = &[]discordgo.ApplicationIntegrationType{discordgo.ApplicationIntegrationGuildInstall}
		}
		cmds[name] = c
		out = append(out, c)
		return c
	}
	top(command.CommandName) // first, even were it empty
	groups := map[string]*discordgo.ApplicationCommandOption{}
	for _, s := range specs {
		sub := &discordgo.ApplicationCommandOption{
			Type:                     discordgo.ApplicationCommandOptionSubCommand,
			Name:                     s.Name,
			NameLocalizations:        localized(s.Name, s.LocalName),
			Description:              s.Description,
			DescriptionLocalizations: localized(s.Description, s.Describe),
		}
		for _, o := range s.Options {
			sub.Options = append(sub.Options, option(o))
		}
		// Discord wants required options before optional ones.
		slices.SortStableFunc(sub.Options, func(a, b *discordgo.ApplicationCommandOption) int {
			return cmp.Compare(boolRank(!a.Required), boolRank(!b.Required))
		})
		cmd := top(s.Command())
		group := s.DiscordGroup()
		if group == "" {
			cmd.Options = append(cmd.Options, sub)
			continue
		}
		g, ok := groups[s.Group]
		if !ok {
			g = &discordgo.ApplicationCommandOption{
				Type:                     discordgo.ApplicationCommandOptionSubCommandGroup,
				Name:                     group,
				NameLocalizations:        localized(group, func(p lang.Printer) string { return command.GroupLocalName(p, s.Group) }),
				Description:              command.GroupDescriptions()[s.Group],
				DescriptionLocalizations: localized(command.GroupDescriptions()[s.Group], func(p lang.Printer) string { return command.GroupDescribe(p, s.Group) }),
			}
			groups[s.Group] = g
			cmd.Options = append(cmd.Options, g)
		}
		g.Options = append(g.Options, sub)
	}
	return out
}

func boolRank(b bool) int {
	if b {
		return 1
	}
	return 0
}

func option(o command.Option) *discordgo.ApplicationCommandOption {
	opt := &discordgo.ApplicationCommandOption{
		Type:                     discordgo.ApplicationCommandOptionString,
		Name:                     o.Name,
		NameLocalizations:        localized(o.Name, o.LocalName),
		Description:              o.Description,
		DescriptionLocalizations: localized(o.Description, o.Describe),
		Required:                 o.Required,
		Autocomplete:             o.Autocomplete,
	}
	if o.Type == command.User {
		// Discord offers the server's members, and sends the ID.
		opt.Type = discordgo.ApplicationCommandOptionUser
	}
	if o.Type == command.Attachment {
		// Discord asks for a file; the interaction names it, and the
		// adapter downloads it (attachments.go).
		opt.Type = discordgo.ApplicationCommandOptionAttachment
	}
	if o.Type == command.Integer {
		opt.Type = discordgo.ApplicationCommandOptionInteger
		if o.Min != 0 || o.Max != 0 {
			lo := float64(o.Min)
			opt.MinValue, opt.MaxValue = &lo, float64(o.Max)
		}
	}
	for i, c := range o.Choices {
		name := c
		if i < len(o.Labels) {
			name = o.Labels[i] // what the value means; the value is sent
		}
		opt.Choices = append(opt.Choices, &discordgo.ApplicationCommandOptionChoice{
			Name: name, Value: c,
			NameLocalizations: localized(name, func(p lang.Printer) string { return o.ChoiceName(p, i) }),
		})
	}
	return opt
}

// localized is a field in the languages of the catalogue other than
// English, by Discord locale, worded by word; nil if none differs from
// def, the English (Discord ignores a localisation equal to the default).
// Discord shows users of a locale its words, and still sends the English
// names in interactions: parsing is the same in every language.
func localized(def string, word func(lang.Printer) string) map[discordgo.Locale]string {
	var out map[discordgo.Locale]string
	for _, t := range lang.Tags() {
		loc, ok := discordLocale(t)
		if !ok {
			continue
		}
		if w := word(lang.For(t)); w != def {
			if out == nil {
				out = map[discordgo.Locale]string{}
			}
			out[loc] = w
		}
	}
	return out
}

// discordLocale is Discord's locale of a language of the catalogue; false
// for English, the commands' own language.
func discordLocale(t lang.Tag) (discordgo.Locale, bool) {
	switch t {
	case lang.French:
		return discordgo.French, true
	}
	return "", false
}

// userOf returns the person behind an interaction: the member in a server
// (named by their server nickname), else the user (in a DM).
func userOf(i *discordgo.Interaction) (chat.User, error) {
	u, nick := i.User, ""
	if i.Member != nil && i.Member.User != nil {
		u, nick = i.Member.User, i.Member.Nick
	}
	if u == nil || u.ID == "" {
		return chat.User{}, fmt.Errorf("%w (interaction %s)", errNoUser, i.ID)
	}
	name := nick
	if name == "" {
		name = u.GlobalName
	}
	if name == "" {
		name = u.Username
	}
	return chat.User{ID: prefix + u.ID, Name: name}, nil
}

// subcommand returns the subcommand of a /risk or /risk-admin command or
// autocomplete interaction, by its full name in the core.
func subcommand(i *discordgo.Interaction) (*discordgo.ApplicationCommandInteractionDataOption, error) {
	d, ok := i.Data.(discordgo.ApplicationCommandInteractionData)
	if !ok {
		return nil, fmt.Errorf("discord: interaction %s carries %T, not a command", i.ID, i.Data)
	}
	if d.Name != command.CommandName && d.Name != command.AdminCommandName {
		return nil, fmt.Errorf("%w: /%s", errNotRisk, d.Name)
	}
	if len(d.Options) != 1 {
		return nil, fmt.Errorf("discord: /%s without a subcommand", d.Name)
	}
	o := d.Options[0]
	switch o.Type {
	case discordgo.ApplicationCommandOptionSubCommand:
		if d.Name == command.AdminCommandName {
			// The core names /risk-admin SUB "admin SUB".
			sub := *o
			sub.Name = command.AdminGroup + " " + sub.Name
			return &sub, nil
		}
		return o, nil
	case discordgo.ApplicationCommandOptionSubCommandGroup:
		if len(o.Options) == 1 && o.Options[0].Type == discordgo.ApplicationCommandOptionSubCommand {
			// The core names it "GROUP SUBCOMMAND" ("admin GROUP
			// SUBCOMMAND" in /risk-admin).
			sub := *o.Options[0]
			sub.Name = o.Name + " " + sub.Name
			if d.Name == command.AdminCommandName {
				sub.Name = command.AdminGroup + " " + sub.Name
			}
			return &sub, nil
		}
	}
	return nil, fmt.Errorf("discord: /%s without a subcommand", d.Name)
}

// requestOf turns a /risk slash command into the core's request.
func requestOf(i *discordgo.Interaction) (chat.Request, error) {
	req, _, err := request(i)
	return req, err
}

// autocompleteOf turns an autocomplete interaction into the core's request
// (the options typed so far) and the name of the option being typed.
func autocompleteOf(i *discordgo.Interaction) (chat.Request, string, error) {
	req, focused, err := request(i)
	if err == nil && focused == "" {
		err = fmt.Errorf("discord: autocomplete %s has no focused option", i.ID)
	}
	return req, focused, err
}

func request(i *discordgo.Interaction) (chat.Request, string, error) {
	if i.ChannelID == "" {
		return chat.Request{}, "", fmt.Errorf("discord: interaction %s has no channel", i.ID)
	}
	u, err := userOf(i)
	if err != nil {
		return chat.Request{}, "", err
	}
	sub, err := subcommand(i)
	if err != nil {
		return chat.Request{}, "", err
	}
	// The interaction's id is the request's key: an interaction delivered
	// twice (a replayed event, another process) is applied once.
	req := chat.Request{Channel: prefix + i.ChannelID, User: u, Command: sub.Name, Options: map[string]string{}, Key: prefix + i.ID,
		Server: server(i), Admin: admin(i), BotLacks: lacking(i.AppPermissions, hostPermissions()), ThreadLacks: threadLacks(i),
		Locale: string(i.Locale), GuildLocale: guildLocale(i)}
	focused := ""
	d, _ := i.Data.(discordgo.ApplicationCommandInteractionData)
	for _, o := range sub.Options {
		req.Options[o.Name] = value(o)
		if o.Type == discordgo.ApplicationCommandOptionAttachment {
			// The value is the attachment's ID: the core sees its name,
			// and its bytes in Files (download).
			req.Options[o.Name] = ""
			if at := attachment(d, value(o)); at != nil {
				req.Options[o.Name] = at.Filename
			}
		}
		if o.Focused {
			focused = o.Name
		}
	}
	return req, focused, nil
}

// value writes an option's value as the core reads it: integers in decimal,
// users as their prefixed ID.
func value(o *discordgo.ApplicationCommandInteractionDataOption) string {
	switch v := o.Value.(type) {
	case string:
		if o.Type == discordgo.ApplicationCommandOptionUser || o.Type == discordgo.ApplicationCommandOptionMentionable {
			return prefix + v
		}
		return v
	case float64:
		return strconv.FormatFloat(v, 'f', -1, 64)
	case bool:
		return strconv.FormatBool(v)
	case nil:
		return ""
	default:
		return fmt.Sprint(v)
	}
}

// clickOf turns a button press into the core's click.
func clickOf(i *discordgo.Interaction) (chat.Click, error) {
	d, ok := i.Data.(discordgo.MessageComponentInteractionData)
	if !ok {
		return chat.Click{}, fmt.Errorf("discord: interaction %s carries %T, not a component", i.ID, i.Data)
	}
	if d.ComponentType != discordgo.ButtonComponent {
		return chat.Click{}, fmt.Errorf("discord: component type %d of %q is not a button", d.ComponentType, d.CustomID)
	}
	if i.ChannelID == "" {
		return chat.Click{}, fmt.Errorf("discord: interaction %s has no channel", i.ID)
	}
	u, err := userOf(i)
	if err != nil {
		return chat.Click{}, err
	}
	return chat.Click{Channel: prefix + i.ChannelID, User: u, ID: d.CustomID, Label: buttonLabel(i.Message, d.CustomID), Key: prefix + i.ID,
		Server: server(i), Admin: admin(i), BotLacks: lacking(i.AppPermissions, hostPermissions()),
		Locale: string(i.Locale), GuildLocale: guildLocale(i)}, nil
}

// guildLocale is the server's locale an interaction carries (none in a
// direct message).
func guildLocale(i *discordgo.Interaction) string {
	if i.GuildLocale == nil {
		return ""
	}
	return string(*i.GuildLocale)
}

// inDM are the subcommands answered in a direct message with the bot:
// a player's matches in every server, and help. Matches are played in a
// server's channels.
var inDM = []string{"me games", "help"}

// server is the core's ID of the interaction's server ("" in a DM).
func server(i *discordgo.Interaction) string {
	if i.GuildID == "" {
		return ""
	}
	return prefix + i.GuildID
}

// threadLacks names the permissions the bot lacks to open a thread for a
// match where the interaction came from: nil outside a server.
func threadLacks(i *discordgo.Interaction) []string {
	if i.GuildID == "" {
		return nil
	}
	return lacking(i.AppPermissions, threadPermissions())
}

// admin reports whether the member behind an interaction may manage the
// server or the channel (member.permissions are theirs in that channel).
func admin(i *discordgo.Interaction) bool {
	return i.Member != nil && isAdmin(i.Member.Permissions)
}

// buttonLabel finds the label of the clicked button in the message it is
// on ("" if the interaction does not carry it).
func buttonLabel(m *discordgo.Message, id string) string {
	if m == nil {
		return ""
	}
	for _, c := range m.Components {
		row, ok := c.(*discordgo.ActionsRow)
		if !ok {
			continue
		}
		for _, rc := range row.Components {
			if b, ok := rc.(*discordgo.Button); ok && b.CustomID == id {
				return b.Label
			}
		}
	}
	return ""
}
