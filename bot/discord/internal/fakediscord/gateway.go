package fakediscord

import (
	"encoding/json"
	"fmt"
	"net/http"
	"strings"

	"github.com/gorilla/websocket"
)

// Gateway opcodes.
const (
	opDispatch     = 0
	opHeartbeat    = 1
	opIdentify     = 2
	opHello        = 10
	opHeartbeatACK = 11
)

// privilegedIntents are the intents an app must be approved for:
// GUILD_MEMBERS, GUILD_PRESENCES and MESSAGE_CONTENT. A bot that asks for
// them without the switch in the developer portal is disconnected with
// close code 4014.
const privilegedIntents = 1<<1 | 1<<8 | 1<<15

type frame struct {
	Op int             `json:"op"`
	D  json.RawMessage `json:"d"`
	S  *int64          `json:"s,omitempty"`
	T  string          `json:"t,omitempty"`
}

// gateway serves the fake gateway's websocket, over the fake's state;
// the Server pushes events to the connections it holds (Dispatch).
type gateway struct{ *Server }

// serve serves one gateway connection: Hello, then Identify, then READY;
// heartbeats are acknowledged; Dispatch pushes events.
func (s gateway) serve(w http.ResponseWriter, r *http.Request) {
	up := websocket.Upgrader{CheckOrigin: func(*http.Request) bool { return true }}
	ws, err := up.Upgrade(w, r, nil)
	if err != nil {
		s.mu.Lock()
		s.violations = append(s.violations, "gateway: upgrade: "+err.Error())
		s.mu.Unlock()
		return
	}
	c := &gatewayConn{ws: ws}
	defer ws.Close()
	if err := c.send(map[string]any{"op": opHello, "d": map[string]any{"heartbeat_interval": 41250}}); err != nil {
		return
	}
	var id frame
	if err := ws.ReadJSON(&id); err != nil {
		return
	}
	var ident struct {
		Token   string  `json:"token"`
		Intents *int64  `json:"intents"`
		Shard   *[2]int `json:"shard"`
	}
	if id.Op != opIdentify || json.Unmarshal(id.D, &ident) != nil {
		s.closeWith(c, 4003, "Not authenticated.", fmt.Sprintf("gateway: first message is op %d, not Identify", id.Op))
		return
	}
	if strings.TrimPrefix(ident.Token, "Bot ") != Token {
		s.closeWith(c, 4004, "Authentication failed.", "gateway: wrong token in Identify")
		return
	}
	intents := int64(0)
	if ident.Intents != nil {
		intents = *ident.Intents
	}
	s.mu.Lock()
	s.identified = append(s.identified, Identify{Token: ident.Token, Intents: intents, Shard: ident.Shard})
	s.mu.Unlock()
	if intents&privilegedIntents != 0 {
		s.closeWith(c, 4014, "Disallowed intent(s).", fmt.Sprintf("gateway: privileged intents requested (%d)", intents&privilegedIntents))
		return
	}
	s.mu.Lock()
	s.seq++
	seq := s.seq
	session := s.snowflakeLocked()
	s.mu.Unlock()
	ready := map[string]any{
		"v": 9, "session_id": "session-" + session, "resume_gateway_url": "ws" + strings.TrimPrefix(s.http.URL, "http") + "/ws",
		"user":        map[string]any{"id": BotID, "username": BotName, "discriminator": "0", "bot": true},
		"application": map[string]any{"id": AppID, "flags": 0},
		"guilds":      []any{}, "private_channels": []any{},
	}
	if err := c.send(map[string]any{"op": opDispatch, "t": "READY", "s": seq, "d": ready}); err != nil {
		return
	}
	s.mu.Lock()
	s.conns[c] = true
	s.mu.Unlock()
	defer func() {
		s.mu.Lock()
		delete(s.conns, c)
		s.mu.Unlock()
	}()
	for {
		var f frame
		if err := ws.ReadJSON(&f); err != nil {
			return
		}
		switch f.Op {
		case opHeartbeat:
			if err := c.send(map[string]any{"op": opHeartbeatACK}); err != nil {
				return
			}
		default:
			// Presence updates and the like: nothing to do.
		}
	}
}

// closeWith closes a connection with a gateway close code, recording why.
func (s gateway) closeWith(c *gatewayConn, code int, text, why string) {
	s.mu.Lock()
	s.violations = append(s.violations, why)
	s.mu.Unlock()
	c.mu.Lock()
	_ = c.ws.WriteMessage(websocket.CloseMessage, websocket.FormatCloseMessage(code, text))
	c.mu.Unlock()
}

// Connected reports how many gateway clients are connected and identified.
func (s *Server) Connected() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return len(s.conns)
}

// Dispatch registers an interaction payload (see Interaction) and pushes it
// to every connected gateway client as INTERACTION_CREATE. It returns the
// payload as sent.
func (s *Server) Dispatch(payload []byte) ([]byte, error) {
	d, err := s.Interaction(payload)
	if err != nil {
		return nil, err
	}
	s.mu.Lock()
	s.seq++
	seq := s.seq
	conns := make([]*gatewayConn, 0, len(s.conns))
	for c := range s.conns {
		conns = append(conns, c)
	}
	s.mu.Unlock()
	if len(conns) == 0 {
		return nil, fmt.Errorf("fakediscord: no gateway client is connected")
	}
	for _, c := range conns {
		if err := c.send(frame{Op: opDispatch, T: "INTERACTION_CREATE", S: &seq, D: d}); err != nil {
			return nil, fmt.Errorf("fakediscord: dispatch: %w", err)
		}
	}
	return d, nil
}
