package discord

import (
	"encoding/json"
	"errors"
	"reflect"
	"strings"
	"testing"

	"github.com/bwmarrin/discordgo"
	"github.com/riskbot/riskbot/bot/chat"
)

// decode reads a fixture as discordgo reads a gateway event's payload.
func decode(t *testing.T, name string) *discordgo.Interaction {
	t.Helper()
	var i discordgo.Interaction
	if err := json.Unmarshal(fixture(t, name), &i); err != nil {
		t.Fatalf("%s: %v", name, err)
	}
	return &i
}

func TestRequestOf(t *testing.T) {
	tests := []struct {
		fixture string
		want    chat.Request
		err     string
	}{
		{
			fixture: "application_command_subcommand.CONSTRUCTED.json",
			want: chat.Request{
				Channel: "discord:645027906669510667",
				User:    chat.User{ID: "discord:53908232506183680", Name: "Mason"},
				Command: "attack",
				Options: map[string]string{"from": "alaska", "to": "kamchatka", "dice": "3"},
				Key:     "discord:786008729715212338", // the interaction's id
				Server:  "discord:290926798626357999",
				Admin:   true, // the member's permissions are all bits
				// app_permissions 442368: Embed Links, Attach Files and two
				// others, without View Channel or Send Messages.
				BotLacks:    []string{"View Channel", "Send Messages"},
				ThreadLacks: []string{"Create Public Threads", "Send Messages in Threads"},
				// The user's and the server's languages.
				Locale: "en-US", GuildLocale: "en-US",
			},
		},
		{
			fixture: "risk_new_dm.CONSTRUCTED.json",
			want: chat.Request{
				Channel: "discord:645027906669510999",
				User:    chat.User{ID: "discord:53908232506183681", Name: "Ann"}, // global_name, not the username
				Command: "new",
				Options: map[string]string{"turn-hours": "12", "fortify": "adjacent"},
				Key:     "discord:786008729715212341",
				// A DM: no server, no member permissions, no server's language.
				BotLacks: []string{"View Channel", "Send Messages"},
				Locale:   "en-GB",
			},
		},
		// Discord's own example is a command of another app.
		{fixture: "application_command.json", err: "not a /risk command: /cardsearch"},
		{fixture: "message_component_button.json", err: "not a command"},
	}
	for _, tt := range tests {
		t.Run(tt.fixture, func(t *testing.T) {
			got, err := requestOf(decode(t, tt.fixture))
			if tt.err != "" {
				if err == nil || !strings.Contains(err.Error(), tt.err) {
					t.Fatalf("error %v, want one saying %q", err, tt.err)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if !reflect.DeepEqual(got, tt.want) {
				t.Errorf("got  %+v\nwant %+v", got, tt.want)
			}
		})
	}
	if _, err := requestOf(decode(t, "application_command.json")); !errors.Is(err, errNotRisk) {
		t.Errorf("another app's command: %v, want errNotRisk", err)
	}
}

func TestAutocompleteOf(t *testing.T) {
	req, focused, err := autocompleteOf(decode(t, "risk_attack_autocomplete.CONSTRUCTED.json"))
	if err != nil {
		t.Fatal(err)
	}
	want := chat.Request{
		Channel: "discord:645027906669510667",
		// The server nickname wins over the global name.
		User:    chat.User{ID: "discord:53908232506183680", Name: "General Mason"},
		Command: "attack",
		Options: map[string]string{"from": "alaska", "to": "kam"},
		Key:     "discord:786008729715212340",
		Locale:  "en-US", GuildLocale: "en-US",
		Server: "discord:290926798626357999", Admin: true, BotLacks: []string{"View Channel", "Send Messages"},
		ThreadLacks: []string{"Create Public Threads", "Send Messages in Threads"},
	}
	if !reflect.DeepEqual(req, want) || focused != "to" {
		t.Errorf("got %+v focused %q\nwant %+v focused \"to\"", req, focused, want)
	}
	// Discord's example autocompletes another app's command.
	if _, _, err := autocompleteOf(decode(t, "application_command_autocomplete.json")); !errors.Is(err, errNotRisk) {
		t.Errorf("airhorn autocomplete: %v, want errNotRisk", err)
	}
}

func TestClickOf(t *testing.T) {
	got, err := clickOf(decode(t, "message_component_button.json"))
	if err != nil {
		t.Fatal(err)
	}
	want := chat.Click{Channel: "discord:345626669114982999", User: chat.User{ID: "discord:53908232506183680", Name: "Mason"}, ID: "click_one",
		Label: "Click me!", Key: "discord:846462639134605312", Server: "discord:290926798626357999",
		Admin: true} // no app_permissions: BotLacks nil, not said
	if !reflect.DeepEqual(got, want) {
		t.Errorf("got %+v, want %+v", got, want)
	}
	if _, err := clickOf(decode(t, "message_component_string_select.json")); err == nil || !strings.Contains(err.Error(), "not a button") {
		t.Errorf("a select menu: %v, want not a button", err)
	}
	if _, err := clickOf(decode(t, "application_command.json")); err == nil {
		t.Error("a slash command read as a click")
	}
}

// Every fixture is readable by discordgo and has what answering needs: an
// application ID for follow-up URLs, an ID and token for the callback.
func TestFixturesCanBeAnswered(t *testing.T) {
	for _, name := range []string{
		"application_command.json", "application_command_autocomplete.json", "application_command_subcommand.CONSTRUCTED.json",
		"message_component_button.json", "message_component_string_select.json",
		"risk_attack_autocomplete.CONSTRUCTED.json", "risk_new_dm.CONSTRUCTED.json",
	} {
		i := decode(t, name)
		if i.AppID == "" || i.ID == "" || i.Token == "" || i.ChannelID == "" {
			t.Errorf("%s: application_id %q, id %q, token %q, channel_id %q", name, i.AppID, i.ID, i.Token, i.ChannelID)
		}
		if _, err := userOf(i); err != nil {
			t.Errorf("%s: %v", name, err)
		}
	}
}
