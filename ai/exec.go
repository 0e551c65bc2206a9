package ai

import (
	"bufio"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os/exec"
	"strings"
	"sync"
	"time"

	"github.com/riskbot/riskbot/engine"
	"github.com/riskbot/riskbot/state"
)

// ProtocolVersion is the version of the outside-bot protocol
// (docs/bot-protocol.md).
const ProtocolVersion = 1

// maxRestarts bounds how often a crashed outside bot is started again for
// one seat; after that the seat plays the safe default.
const maxRestarts = 3

// maxLine bounds one line from an outside bot.
const maxLine = 1 << 20

// execBot runs an outside program and asks it for each decision over JSON
// lines (docs/bot-protocol.md). The program is started on the first
// decision and kept for the next ones; if it dies it is started again (up
// to maxRestarts times) and handed the map again. A decision it misses (no
// valid answer in time) is lost: decide returns nil and the seat plays
// Fallback.
type execBot struct {
	argv    []string
	dir     string
	timeout time.Duration
	startup time.Duration // added to timeout for a run's first request

	mu     sync.Mutex
	proc   *botProcess
	starts int
	nextID int64
}

func newExec(command string, opts Options) (*execBot, error) {
	argv := strings.Fields(command)
	if len(argv) == 0 {
		return nil, fmt.Errorf("%w: %sCOMMAND needs a command", ErrUnknownLevel, ExecPrefix)
	}
	x := &execBot{argv: argv, dir: opts.Dir, timeout: opts.Timeout, startup: opts.Startup}
	if x.timeout <= 0 {
		x.timeout = DefaultTimeout
	}
	if x.startup <= 0 {
		x.startup = DefaultStartup
	}
	return x, nil
}

// botProcess is one run of the outside program.
type botProcess struct {
	cmd   *exec.Cmd
	stdin io.WriteCloser
	lines chan []byte   // lines read from its stdout; closed at EOF
	done  chan struct{} // closed when the process has exited
	sent  bool          // the map was sent to this run
}

func (x *execBot) start() (*botProcess, error) {
	cmd := exec.Command(x.argv[0], x.argv[1:]...)
	cmd.Dir = x.dir
	stdin, err := cmd.StdinPipe()
	if err != nil {
		return nil, fmt.Errorf("ai: exec %s: %w", x.argv[0], err)
	}
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		return nil, fmt.Errorf("ai: exec %s: %w", x.argv[0], err)
	}
	cmd.Stderr = nil // discarded: a bot's diagnostics are its own business
	ownGroup(cmd)
	if err := cmd.Start(); err != nil {
		return nil, fmt.Errorf("ai: exec %s: %w", x.argv[0], err)
	}
	p := &botProcess{cmd: cmd, stdin: stdin, lines: make(chan []byte, 16), done: make(chan struct{})}
	go func() {
		sc := bufio.NewScanner(stdout)
		sc.Buffer(make([]byte, 64<<10), maxLine)
		for sc.Scan() {
			p.lines <- append([]byte(nil), sc.Bytes()...)
		}
		close(p.lines)
		_ = cmd.Wait()
		close(p.done)
	}()
	return p, nil
}

// stop ends the process: its input is closed, and it is killed (with
// whatever it started) if it has not left within a second.
func (p *botProcess) stop() {
	go drain(p.lines)
	_ = p.stdin.Close()
	select {
	case <-p.done:
	case <-time.After(time.Second):
		killGroup(p.cmd)
		<-p.done
	}
}

// kill ends the process, and whatever it started, at once.
func (p *botProcess) kill() {
	go drain(p.lines)
	killGroup(p.cmd)
	_ = p.stdin.Close()
	<-p.done
}

// drain discards the lines nobody will read, so that the reader can reach
// the end of the output and the process can be waited for.
func drain(lines <-chan []byte) {
	for range lines {
	}
}

// Close stops the outside program.
func (x *execBot) Close() error {
	x.mu.Lock()
	defer x.mu.Unlock()
	if x.proc != nil {
		x.proc.stop()
		x.proc = nil
	}
	return nil
}

// request is one decision asked of an outside bot.
type request struct {
	Type      string            `json:"type"`
	Protocol  int               `json:"protocol"`
	ID        int64             `json:"id"`
	Seat      int               `json:"seat"`
	TimeoutMS int64             `json:"timeout_ms"`
	Map       *mapInfo          `json:"map,omitempty"`
	State     *state.State      `json:"state"`
	Legal     []json.RawMessage `json:"legal"`
}

// reply is an outside bot's answer.
type reply struct {
	ID      int64           `json:"id"`
	Command json.RawMessage `json:"command"`
}

// mapInfo is the map as the protocol sends it: everything by index.
type mapInfo struct {
	Name        string          `json:"name"`
	Territories []territoryInfo `json:"territories"`
	Continents  []continentInfo `json:"continents"`
	// Grid is the cell board of a generated map (capitals matches): one
	// string per row, one character per cell, '.' for water.
	Grid *state.GridSpec `json:"grid,omitempty"`
}

type territoryInfo struct {
	Name      string `json:"name"`
	Continent int    `json:"continent"`
	Adj       []int  `json:"adj"`
	Terrain   string `json:"terrain"`
	// The features of generated maps: the territories a port here reaches
	// by sea (none of them in Adj), a shore (a port may be built), a
	// fortress.
	Sea      []int `json:"sea,omitempty"`
	Coast    bool  `json:"coast,omitempty"`
	Fortress bool  `json:"fortress,omitempty"`
}

type continentInfo struct {
	Name        string `json:"name"`
	Bonus       int    `json:"bonus"`
	Territories []int  `json:"territories"`
}

func describeMap(m *state.Map) *mapInfo {
	mi := &mapInfo{Name: m.Name}
	for _, t := range m.Territories {
		ti := territoryInfo{Name: t.Name, Continent: t.Continent, Adj: t.Adj, Terrain: t.Terrain.String(), Fortress: t.Fortress}
		if m.Grid != nil {
			ti.Sea, ti.Coast = t.Sea, t.Coast
		}
		mi.Territories = append(mi.Territories, ti)
	}
	if m.Grid != nil {
		g := m.Grid.Spec()
		mi.Grid = &g
	}
	for _, c := range m.Continents {
		mi.Continents = append(mi.Continents, continentInfo{Name: c.Name, Bonus: c.Bonus, Territories: c.Territories})
	}
	return mi
}

// errLost is a decision the outside bot did not make in time or made
// wrong.
var errLost = errors.New("ai: the outside bot lost the decision")

func (x *execBot) decide(ctx context.Context, s *state.State, seat int) engine.Command {
	x.mu.Lock()
	defer x.mu.Unlock()
	c, err := x.ask(ctx, s, seat)
	if err != nil {
		return nil
	}
	return c
}

// ask sends one request and waits for its answer.
func (x *execBot) ask(ctx context.Context, s *state.State, seat int) (engine.Command, error) {
	if x.proc == nil {
		if x.starts > maxRestarts {
			return nil, fmt.Errorf("%w: it crashed too often", errLost)
		}
		x.starts++
		p, err := x.start()
		if err != nil {
			return nil, err
		}
		x.proc = p
	}
	p := x.proc
	x.nextID++
	// The first request to a run of the program also pays for its start
	// (an interpreter, a JIT, loading a model): it gets the allowance on
	// top, and its timeout_ms says so.
	timeout := x.timeout
	if !p.sent {
		timeout += x.startup
	}
	req := request{Type: "decide", Protocol: ProtocolVersion, ID: x.nextID, Seat: seat, TimeoutMS: timeout.Milliseconds(), State: s}
	if !p.sent {
		req.Map = describeMap(s.Map)
	}
	for _, c := range engine.Legal(s, seat) {
		if _, ok := c.(engine.Surrender); ok {
			continue
		}
		b, err := engine.MarshalCommand(c)
		if err != nil {
			return nil, fmt.Errorf("ai: exec: %w", err)
		}
		req.Legal = append(req.Legal, b)
	}
	line, err := json.Marshal(req)
	if err != nil {
		return nil, fmt.Errorf("ai: exec: encode request: %w", err)
	}
	line = append(line, '\n')
	timer := time.NewTimer(timeout)
	defer timer.Stop()
	// Write in the background: a bot that does not read must not block us.
	wrote := make(chan error, 1)
	go func() { _, err := p.stdin.Write(line); wrote <- err }()
	written := false
	for {
		select {
		case err := <-wrote:
			if err != nil {
				x.drop()
				return nil, fmt.Errorf("%w: %v", errLost, err)
			}
			written, p.sent = true, true
		case b, ok := <-p.lines:
			if !ok {
				x.drop()
				return nil, fmt.Errorf("%w: it exited", errLost)
			}
			var r reply
			if err := json.Unmarshal(b, &r); err != nil {
				return nil, fmt.Errorf("%w: not a JSON reply: %v", errLost, err)
			}
			if r.ID != req.ID {
				continue // an answer to an earlier, timed-out request
			}
			c, err := engine.UnmarshalCommand(r.Command)
			if err != nil {
				return nil, fmt.Errorf("%w: %v", errLost, err)
			}
			return c, nil
		case <-timer.C:
			if !written {
				x.drop() // it does not even read: start afresh next time
			}
			return nil, fmt.Errorf("%w: no answer within %s", errLost, timeout)
		case <-ctx.Done():
			if !written {
				x.drop()
			}
			return nil, ctx.Err()
		}
	}
}

// drop kills the current process; the next decision starts a new one.
func (x *execBot) drop() {
	if x.proc != nil {
		x.proc.kill()
		x.proc = nil
	}
}
