package ai

import (
	"bufio"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"strings"
	"testing"
	"time"
)

// fakeBotFlag makes the test binary act as an outside bot: the exec tests
// run os.Args[0] with it, so they need no other program.
const fakeBotFlag = "-fakebot="

func TestMain(m *testing.M) {
	for _, a := range os.Args[1:] {
		if mode, ok := strings.CutPrefix(a, fakeBotFlag); ok {
			os.Exit(fakeBot(mode))
		}
	}
	os.Exit(m.Run())
}

// fakeBot plays by the protocol, badly on purpose depending on mode:
//
//	good     answers the first legal command
//	slow     answers after 10 s (times out)
//	crash    exits when it reads its first request
//	garbage  answers lines that are not JSON
//	illegal  answers a well-formed command that is not legal
//	unknown  answers a command of an unknown type
//	stale    answers each request twice, the first time with a wrong id
//	deaf     never reads its input and never answers
//	spawn    starts a deaf child that shares its output, then hangs
//	chatty   floods its output with answers to no request, then hangs
//	slowstart starts slowly (700 ms before it reads), then plays as good
func fakeBot(mode string) int {
	switch mode {
	case "slowstart":
		time.Sleep(700 * time.Millisecond)
	case "deaf":
		time.Sleep(time.Minute)
		return 0
	case "spawn":
		// Start a child that holds our output open, then hang.
		child := exec.Command(os.Args[0], fakeBotFlag+"deaf")
		child.Stdout = os.Stdout
		if err := child.Start(); err != nil {
			return 5
		}
		time.Sleep(time.Minute)
		return 0
	case "chatty":
		// Flood the output without ever answering.
		for range 10000 {
			fmt.Println(`{"id":-1,"command":{"type":"end"}}`)
		}
		time.Sleep(time.Minute)
		return 0
	}
	in := bufio.NewScanner(os.Stdin)
	in.Buffer(make([]byte, 1<<20), 16<<20)
	first := true
	for in.Scan() {
		var req struct {
			ID    int64             `json:"id"`
			Map   json.RawMessage   `json:"map"`
			Legal []json.RawMessage `json:"legal"`
		}
		if err := json.Unmarshal(in.Bytes(), &req); err != nil {
			return 3
		}
		if first && len(req.Map) == 0 {
			return 4 // the map must come with the first request
		}
		first = false
		answer := func(id int64, cmd string) { fmt.Printf("{\"id\":%d,\"command\":%s}\n", id, cmd) }
		switch mode {
		case "good", "slowstart":
			answer(req.ID, string(req.Legal[0]))
		case "slow":
			time.Sleep(10 * time.Second)
			answer(req.ID, string(req.Legal[0]))
		case "crash":
			return 1
		case "garbage":
			fmt.Println("I think I'll attack Kamchatka")
		case "illegal":
			answer(req.ID, `{"type":"attack","from":0,"to":0,"dice":3}`)
		case "unknown":
			answer(req.ID, `{"type":"nuke","target":7}`)
		case "stale":
			answer(req.ID-1000, `{"type":"end"}`)
			answer(req.ID, string(req.Legal[0]))
		}
	}
	return 0
}
