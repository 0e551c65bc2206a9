package web

import (
	"context"
	"fmt"
	"net/http"
	"net/url"
	"strings"
	"testing"
	"time"

	"github.com/riskbot/riskbot/bot/discord/discordtest"
)

// discordClient is a fake of Discord's client for the Activity's page: it
// frames the page as Discord does (the query of frame_id, instance_id,
// platform, channel_id, guild_id) and speaks the Embedded App SDK's
// messages with it over postMessage, as Discord's RPC server does:
//
//	page → client  [0, {v: 1, encoding, client_id, frame_id, sdk_version}]  the handshake
//	client → page  [1, {cmd: "DISPATCH", evt: "READY", nonce: null, data: {v, config, user}}]
//	page → client  [1, {cmd, args, nonce}]                                  a command
//	client → page  [1, {cmd, evt: null, nonce, data}]                       its answer
//
// AUTHORIZE is answered with the code of its query (one the fake Discord
// made for the player), after checking the application and the scope;
// AUTHENTICATE with the player, once the page gives the access token its
// server got; any other command (the SDK's captured console) with nothing.
// What it saw is in window.rpc for the test.
const discordClient = `<!doctype html>
<meta charset="utf-8"><title>Discord (fake client)</title>
<style>html, body { margin: 0; height: 100%; background: #000; } iframe { border: 0; display: block; width: 100%; height: 100%; }</style>
<body><script>
"use strict";
const q = new URLSearchParams(location.search);
window.rpc = { handshakes: 0, commands: [], errors: [], token: "" };
const frame = document.createElement("iframe");
frame.src = "/?" + new URLSearchParams({ frame_id: "fake-frame", instance_id: q.get("instance"), platform: "desktop",
  channel_id: q.get("channel"), guild_id: q.get("guild") });
document.body.appendChild(frame);
const send = (data) => frame.contentWindow.postMessage([1, data], location.origin);
const user = { id: q.get("user"), username: q.get("username"), discriminator: "0", avatar: null, public_flags: 0, global_name: q.get("name") };
addEventListener("message", (ev) => {
  if (ev.source !== frame.contentWindow || !Array.isArray(ev.data)) return;
  const [op, d] = ev.data;
  if (op === 0) {
    rpc.handshakes++;
    if (d.v !== 1 || d.client_id !== q.get("client") || d.frame_id !== "fake-frame") rpc.errors.push("handshake " + JSON.stringify(d));
    send({ cmd: "DISPATCH", evt: "READY", nonce: null, data: { v: 1, config: { cdn_host: "cdn.discordapp.com", api_endpoint: "//discord.com/api", environment: "production" },
      user: { id: user.id, username: user.username, discriminator: "0" } } });
    return;
  }
  if (op !== 1) return;
  const answer = (data) => send({ cmd: d.cmd, evt: null, nonce: d.nonce, data });
  rpc.commands.push(d.cmd);
  switch (d.cmd) {
  case "AUTHORIZE": {
    const a = d.args || {};
    if (a.client_id !== q.get("client") || a.response_type !== "code" || !(a.scope || []).includes("identify")) {
      rpc.errors.push("authorize " + JSON.stringify(a));
      send({ cmd: d.cmd, evt: "ERROR", nonce: d.nonce, data: { code: 4002, message: "bad authorize" } });
      return;
    }
    answer({ code: q.get("code") });
    return;
  }
  case "AUTHENTICATE":
    rpc.token = (d.args || {}).access_token || "";
    answer({ access_token: rpc.token, user, scopes: ["identify"], expires: new Date(Date.now() + 6048e5).toISOString(),
      application: { id: q.get("client"), name: "Risk", description: "" } });
    return;
  default:
    answer(null);
  }
});
</script>`

// TestBrowserActivity plays in the page as Discord's Activity: the page,
// framed by a fake of Discord's client that speaks the SDK's messages,
// loads the SDK, has the client authorize it (a code of the fake
// Discord's), has its server exchange the code with the fake Discord for
// its player, authenticates, opens the channel's match with its map, and
// plays a reinforcement by a click on the map. The channel's match gets
// the command from Ann's seat, and the answer is posted in the channel on
// Discord, as a typed command's would be seen.
func TestBrowserActivity(t *testing.T) {
	br := newBrowser(t)
	e := newActivityEnv(t, map[string]http.HandlerFunc{"GET /discord-client.html": func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/html; charset=utf-8")
		fmt.Fprint(w, discordClient)
	}})
	l := e.started(t)
	s := l.Game.State
	seat := s.SeatByID(discordPrefix + annD.ID)
	if s.Phase.String() != "reinforce" || s.Seats[seat].Reserve == 0 {
		t.Fatalf("Ann's turn is in phase %s with %d to place, want reinforcements", s.Phase, s.Seats[seat].Reserve)
	}
	instance := e.fake.Launch(activityCh, annD.ID, bobD.ID)
	code := e.fake.Authorize(annD)
	q := url.Values{"client": {discordtest.AppID}, "instance": {instance}, "channel": {activityCh}, "guild": {discordtest.GuildID},
		"code": {code}, "user": {annD.ID}, "username": {annD.Username}, "name": {annD.GlobalName}}
	posts := len(e.channelPosts())
	p := br.open(e.base+"/discord-client.html?"+q.Encode(), shotsDir(t))
	// The page's document, inside the fake client's frame.
	const doc = `document.querySelector("iframe").contentDocument`
	p.debug = `JSON.stringify({rpc, panel: ` + doc + `?.getElementById("panel")?.innerText, error: ` + doc + `?.getElementById("error")?.innerText, title: ` + doc + `?.getElementById("channel-name")?.textContent})`

	p.waitFor("the player signed in", `window.rpc?.token && `+doc+`?.getElementById("channel-name")?.textContent === "Risk · Ann"`, browserWait)
	var rpc struct {
		Handshakes int      `json:"handshakes"`
		Commands   []string `json:"commands"`
		Errors     []string `json:"errors"`
	}
	p.eval(`rpc`, &rpc)
	if rpc.Handshakes != 1 || len(rpc.Errors) > 0 || !strings.HasPrefix(strings.Join(rpc.Commands, " "), "AUTHORIZE AUTHENTICATE") {
		t.Errorf("the client saw %+v: want one handshake, then AUTHORIZE and AUTHENTICATE, and no error", rpc)
	}
	if e.fake.Exchanges() != 1 {
		t.Errorf("the fake Discord exchanged %d codes, want 1", e.fake.Exchanges())
	}
	// The map of the match, docked, with Ann's reinforcements to place.
	p.waitFor("the map docked", `(() => { const d = `+doc+`, im = d.querySelector("#dock-map img.map");
		return !d.getElementById("dock").hidden && im && im.complete && im.naturalWidth > 0 && d.querySelectorAll("#dock .spot").length > 0
			&& d.getElementById("panel").innerText.toLowerCase().includes("place"); })()`, browserWait)
	p.screenshot("activity-1-signed-in")

	// A click on one of Ann's territories places an army there.
	target := -1
	for i, tr := range s.Terr {
		if tr.Owner == seat {
			target = i
			break
		}
	}
	var xy []float64
	p.eval(fmt.Sprintf(`(() => { const f = document.querySelector("iframe").getBoundingClientRect(), b = %s.querySelector('#dock .spot[data-t="%d"]').getBoundingClientRect();
		return [f.left + b.left + b.width / 2, f.top + b.top + b.height / 2]; })()`, doc, target), &xy)
	for _, typ := range []string{"mouseMoved", "mousePressed", "mouseReleased"} {
		p.call("Input.dispatchMouseEvent", map[string]any{"type": typ, "x": xy[0], "y": xy[1], "button": "left", "clickCount": 1})
	}
	deadline := time.Now().Add(browserWait)
	for e.match(t).Game.Version == l.Game.Version {
		if time.Now().After(deadline) {
			p.fail("the click played nothing")
		}
		time.Sleep(20 * time.Millisecond)
	}
	after := e.match(t)
	x, err := e.db.Export(context.Background(), after.ID)
	if err != nil {
		t.Fatal(err)
	}
	last := x.Record.Log[len(x.Record.Log)-1]
	if last.Seat != seat || last.Cmd.Name() != "place" || after.Game.State.Terr[target].Armies != s.Terr[target].Armies+1 {
		t.Errorf("the last command is %s by seat %d, territory %d has %d armies; want Ann's (seat %d) place of one army there (from %d)",
			last.Cmd.Name(), last.Seat, target, after.Game.State.Terr[target].Armies, seat, s.Terr[target].Armies)
	}
	// The channel on Discord reads it: the turn's post, edited, tells Ann's
	// army placed (the answer to the placer is hers, on the page).
	name := s.Map.Territories[target].Name
	placed := fmt.Sprintf("Ann placed 1 on %s", name)
	var post *discordtest.Message
	for end := time.Now().Add(browserWait); post == nil && time.Now().Before(end); time.Sleep(20 * time.Millisecond) {
		for _, m := range e.channelPosts() {
			if len(m.Embeds) > 0 && strings.Contains(m.Embeds[0].Description, placed) {
				post = &m
			}
		}
	}
	if post == nil {
		for _, m := range e.fake.Messages() {
			t.Logf("%s %s edits %d: %.300q %+v", m.Kind, m.ID, m.Edits, m.Content, m.Embeds)
		}
		p.fail("the channel's turn post does not say %q", placed)
	}
	// Opening the Activity posted nothing in the channel (nothing told
	// again, as the page's own channels are after a restart), and a
	// placement's answer is the placer's.
	if n := len(e.channelPosts()); n != posts {
		t.Errorf("the channel has %d posts after the Activity played, want %d as before", n, posts)
	}
	// The page shows the channel's post as Discord does, edited in place,
	// without Play on the map: it is the map.
	if _, ok := buttonOf(*post, "🗺 Play on the map"); !ok {
		t.Errorf("the channel's turn post has no Play on the map: %+v", post.Buttons)
	}
	p.waitFor("the turn's post on the page", fmt.Sprintf(`[...%s.querySelectorAll("#messages .message")].some((m) => m.innerText.includes(%q) && !m.innerText.includes("Play on the map"))`, doc, placed), browserWait)
	// And its map follows: the board read again, one army fewer to place.
	p.waitFor("the board after the placement", fmt.Sprintf(`%s.getElementById("panel").innerText.includes("(%d to place)")`, doc, s.Seats[seat].Reserve-1), browserWait)
	p.screenshot("activity-2-placed")
}

// channelPosts are the messages the bot posted in the Activity's channel
// (not answers to interactions).
func (e *activityEnv) channelPosts() []discordtest.Message {
	var out []discordtest.Message
	for _, m := range e.fake.Messages() {
		if m.ChannelID == activityCh && m.Interaction == "" && !m.Deleted {
			out = append(out, m)
		}
	}
	return out
}

// buttonOf finds a button of a message by the start of its label.
func buttonOf(m discordtest.Message, label string) (string, bool) {
	for _, row := range m.Buttons {
		for _, b := range row {
			if strings.HasPrefix(b.Label, label) {
				return b.CustomID, true
			}
		}
	}
	return "", false
}
