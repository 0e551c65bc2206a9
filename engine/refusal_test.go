package engine

import (
	"errors"
	"go/ast"
	"go/parser"
	"go/token"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/riskbot/riskbot/assets/lang"
	"github.com/riskbot/riskbot/state"
)

// refusalTest is a row of TestRefusalWording: a refusal raised by a
// command, and its English wording as it was before the refusals became
// values (the goldens and transcripts of the bot compare it byte for byte).
type refusalTest struct {
	name string
	code Code
	err  func(t *testing.T) error
	want string
}

// refuse applies c for the seat named seat on a classic board (or, with
// capitals, on the islands), after mod.
func refuse(text string, capitals bool, seat string, c Command, mod ...func(*state.State)) func(t *testing.T) error {
	return func(t *testing.T) error {
		var s *state.State
		if capitals {
			s = capBoard(t, text)
		} else {
			s = board(t, text)
		}
		for _, f := range mod {
			f(s)
		}
		i := slices.IndexFunc(s.Seats, func(p state.Seat) bool { return p.Name == seat })
		if i < 0 {
			t.Fatalf("no seat %q", seat)
		}
		_, err := apply(s, i, c, &dice{rng: &s.RNG})
		return err
	}
}

func classic(text, seat string, c Command, mod ...func(*state.State)) func(t *testing.T) error {
	return refuse(text, false, seat, c, mod...)
}

func capitals(text, seat string, c Command, mod ...func(*state.State)) func(t *testing.T) error {
	return refuse(text, true, seat, c, mod...)
}

// game runs f on a Game of a classic board.
func game(text string, f func(g *Game) error) func(t *testing.T) error {
	return func(t *testing.T) error {
		g := &Game{State: board(t, text)}
		g.checkpoint()
		return f(g)
	}
}

func fogOn(s *state.State) { s.Options.Fog = true }

const reinforcing = `
	players: Ann Bob
	phase: reinforce
	current: Ann
	rest: Bob 1
	Alaska: Ann 5
	Alberta: Ann 3
	reserve Ann: 3
`

var refusalTests = []refusalTest{
	// classic
	{name: "not adjacent", code: ErrNotAdjacent, err: classic(annAttacks, "Ann", Attack{From: T("Alaska"), To: T("Greenland"), Dice: 3}),
		want: "Alaska does not border Greenland"},
	{name: "own territory", code: ErrOwnTerritory, err: classic(annAttacks, "Ann", Attack{From: T("Alaska"), To: T("Alberta"), Dice: 3}),
		want: "Alberta is yours already"},
	{name: "attack from another's", code: ErrNotYourTerritory, err: classic(annAttacks, "Ann", Attack{From: T("Kamchatka"), To: T("Alaska"), Dice: 1}),
		want: "you can attack only from your own territories; Kamchatka belongs to Bob"},
	{name: "one army", code: ErrNotEnoughArmies, err: classic(annAttacks, "Ann", Attack{From: T("Northwest Territory"), To: T("Greenland"), Dice: 1}),
		want: "Northwest Territory has only 1 army: at least 2 are needed to attack (one stays behind)"},
	{name: "four dice", code: ErrTooManyDice, err: classic(annAttacks, "Ann", Attack{From: T("Alaska"), To: T("Kamchatka"), Dice: 4}),
		want: "roll 1 to 3 dice, not 4"},
	{name: "dice for the armies", code: ErrTooManyDice, err: classic(annAttacks, "Ann", Attack{From: T("Alberta"), To: T("Ontario"), Dice: 3}),
		want: "with 3 armies on Alberta you can roll at most 2 dice"},
	{name: "blitz keeps none", code: ErrBadArmies, err: classic(annAttacks, "Ann", Blitz{From: T("Alaska"), To: T("Kamchatka"), Keep: 0}),
		want: "a blitz must keep at least 1 army on Alaska, not 0"},
	{name: "blitz keeps all", code: ErrBadArmies, err: classic(annAttacks, "Ann", Blitz{From: T("Alaska"), To: T("Kamchatka"), Keep: 5}),
		want: "Alaska has 5 armies: to keep 5 there, there is nothing to attack with"},
	{name: "another's turn", code: ErrNotYourTurn, err: classic(annAttacks, "Bob", Attack{From: T("Kamchatka"), To: T("Alaska"), Dice: 2}),
		want: "not your turn: Ann is playing"},
	{name: "placing in the attack phase", code: ErrWrongPhase, err: classic(annAttacks, "Ann", Place{Territory: T("Alaska"), Armies: 1}),
		want: "you have no armies to place now (attack phase)"},
	{name: "attacking before placing", code: ErrWrongPhase, err: classic(reinforcing, "Ann", Attack{From: T("Alaska"), To: T("Kamchatka"), Dice: 3}),
		want: "place your 3 remaining armies before attacking"},
	{name: "ending before placing", code: ErrWrongPhase, err: classic(reinforcing+"reserve Ann: 1", "Ann", EndTurn{}),
		want: "place your 1 remaining army first"},
	{name: "trading in the attack phase", code: ErrWrongPhase, err: classic(annAttacks+"hand Ann: 0 1 2", "Ann", Trade{Cards: [3]state.Card{infAlaska, cavNWT, artGreenland}}),
		want: "cards are traded at the start of your turn, before placing; it is the attack phase now"},
	{name: "no such territory", code: ErrNoSuchTerritory, err: classic(annAttacks, "Ann", Attack{From: 99, To: T("Kamchatka"), Dice: 1}),
		want: "there is no territory number 99 on this map"},
	{name: "fortify in place", code: ErrBadCommand, err: classic(annAttacks, "Ann", Fortify{From: T("Alaska"), To: T("Alaska"), Armies: 1}),
		want: "pick two different territories"},
	{name: "fortify too many", code: ErrBadArmies, err: classic(annAttacks, "Ann", Fortify{From: T("Alaska"), To: T("Alberta"), Armies: 9}),
		want: "move 1 to 4 armies from Alaska, not 9"},
	{name: "over", code: ErrGameOver, err: classic(annAttacks+"winner: Ann", "Bob", EndTurn{}, func(s *state.State) { s.Phase = state.PhaseOver }),
		want: "the match is over: Ann won"},
	{name: "out", code: ErrNotPlaying, err: classic(annAttacks+"status Bob: surrendered", "Bob", EndTurn{}),
		want: "you are out of this match (surrendered)"},
	{name: "must trade", code: ErrMustTrade, err: classic(reinforcing+"hand Ann: 0 1 2 3 4", "Ann", Place{Territory: T("Alaska"), Armies: 3}),
		want: "you hold 5 cards: trade a set before placing"},
	{name: "not a set", code: ErrBadCards, err: classic(reinforcing+"hand Ann: 0 1 3 42", "Ann", Trade{Cards: [3]state.Card{infAlaska, cavNWT, infAlberta}}),
		want: "Alaska (infantry), Northwest Territory (cavalry) and Alberta (infantry) are not a set: you need three of a kind or one of each (a wild counts as any)"},
	{name: "card not held", code: ErrBadCards, err: classic(reinforcing+"hand Ann: 0 1", "Ann", Trade{Cards: [3]state.Card{infAlaska, cavNWT, wild1}}),
		want: "you do not hold card 42"},
	{name: "must discard", code: ErrMustDiscard, err: classic(annAttacks+"hand Ann: 0 1 2 3 4\nflags: conquered", "Ann", EndTurn{}),
		want: "you hold 5 cards and will draw one: discard a card first"},
	{name: "fortified", code: ErrAlreadyFortified, err: classic(annAttacks+"options: fortify=connected\nflags: fortified", "Ann", Fortify{From: T("Alaska"), To: T("Alberta"), Armies: 1}),
		want: "you have already fortified this turn (one move per turn): end your turn"},
	{name: "not connected", code: ErrNotConnected, err: classic(annAttacks+"options: fortify=connected\nPeru: Ann 2", "Ann", Fortify{From: T("Alaska"), To: T("Peru"), Armies: 1}),
		want: "Alaska and Peru are not connected through your territories"},
	{name: "not your territory to place on", code: ErrNotYourTerritory, err: classic(reinforcing, "Ann", Place{Territory: T("Kamchatka"), Armies: 1}),
		want: "Kamchatka belongs to Bob, not you"},
	{name: "too many to place", code: ErrBadArmies, err: classic(reinforcing, "Ann", Place{Territory: T("Alaska"), Armies: 4}),
		want: "you can place 1 to 3 armies, not 4"},
	{name: "nothing to undo", code: ErrNothingToUndo, err: game(annAttacks, func(g *Game) error { _, _, err := g.Apply(0, Undo{}); return err }),
		want: "nothing to undo: dice rolls, card draws and earlier turns cannot be taken back"},
	{name: "undo after another's automatic placement", code: ErrNothingToUndo, err: game(annAttacks, func(g *Game) error {
		g.undo.cut = cut{Seat: 1, Why: cutAutoPlace}
		return g.nothingToUndo(0)
	}),
		want: "nothing to undo: Bob's automatic placement drew its territories at random, so it cannot be taken back, nor what came before it"},
	{name: "undo after the dice", code: ErrNothingToUndo, err: game(annAttacks, func(g *Game) error {
		g.undo.cut = cut{Seat: 0, Why: cutDice}
		return g.nothingToUndo(0)
	}),
		want: "nothing to undo: the dice were rolled, and a roll cannot be taken back, nor what came before it"},
	{name: "undo from another seat", code: ErrNotYourTurn, err: game(annAttacks, func(g *Game) error { _, _, err := g.Apply(1, Undo{}); return err }),
		want: "not your turn: Ann is playing"},

	// fog of war (classic)
	{name: "fog: not adjacent", code: ErrNotAdjacent, err: classic(annAttacks, "Ann", Attack{From: T("Alaska"), To: T("Greenland"), Dice: 3}, fogOn),
		want: "Alaska does not border Greenland"},
	// missions
	{name: "missions: not your turn", code: ErrNotYourTurn, err: classic(annAttacks+"options: victory=missions\nmission Ann: asia+africa\nmission Bob: asia+africa", "Bob", EndTurn{}),
		want: "not your turn: Ann is playing"},
	// teams
	{name: "teams: a teammate", code: ErrTeammate, err: classic(teamsBoard, "Ann", Attack{From: T("Alaska"), To: T("Alberta"), Dice: 3}),
		want: "Alberta belongs to your teammate Cid: teammates never attack each other"},
	// simultaneous
	{name: "simultaneous: committed", code: ErrCommitted, err: classic(ordersBoard, "Ann", EndTurn{}, func(s *state.State) { s.Seats[0].Ready = true }),
		want: "your orders for round 1 are in: wait for the others"},
	{name: "simultaneous: attack is an order", code: ErrWrongPhase, err: classic(ordersBoard, "Ann", Attack{From: T("Alaska"), To: T("Kamchatka"), Dice: 3}),
		want: "in a simultaneous round, attacks are orders: attack with a number of armies (they roll when the round resolves)"},
	{name: "simultaneous: own territory", code: ErrOwnTerritory, err: classic(ordersBoard+"Alberta: Ann 2", "Ann", Assault{From: T("Alaska"), To: T("Alberta"), Armies: 1}),
		want: "Alberta is yours: move armies there instead"},
	{name: "simultaneous: too many", code: ErrBadArmies, err: classic(ordersBoard, "Ann", Assault{From: T("Alaska"), To: T("Kamchatka"), Armies: 40}),
		want: "order 1 to 9 armies from Alaska, not 40 (one stays; your earlier orders count)"},
	{name: "simultaneous: place first", code: ErrWrongPhase, err: classic(ordersBoard+"reserve Ann: 2", "Ann", EndTurn{}),
		want: "place your 2 remaining armies first"},
	// rollback
	{name: "rollback: not the host", code: ErrNotHost, err: game(annAttacks, func(g *Game) error { _, _, err := g.Apply(0, Rollback{Turn: 1}); return err }),
		want: "only the match's host can roll it back"},
	{name: "rollback: no such turn", code: ErrBadCommand, err: game(annAttacks, func(g *Game) error { _, _, err := g.RollbackPreview(5); return err }),
		want: "there is no turn 5 to go back to: turns 1 to 1 have begun"},
	{name: "rollback: over", code: ErrGameOver, err: game(annAttacks, func(g *Game) error {
		g.State.Phase = state.PhaseOver
		_, _, err := g.RollbackPreview(1)
		return err
	}),
		want: "the match is over: its result is recorded and its seed revealed, which tells every die to come, so it cannot be rolled back"},

	// capitals
	{name: "capitals: a classic command", code: ErrUnsupported, err: capitals(twoCapitals, "Ann", Place{Territory: I("Alba"), Armies: 1}),
		want: "in a capitals match all your reinforcements go to one territory: reinforce"},
	{name: "capitals: a capital taken", code: ErrNotNeutral, err: capitals("players: Ann Bob\nphase: setup\ncurrent: Bob\nAlba: Ann 10 capital", "Bob", Capital{I("Alba")}),
		want: "Alba is already Ann's capital"},
	{name: "capitals: choosing in turn", code: ErrNotYourTurn, err: capitals("players: Ann Bob\nphase: setup\ncurrent: Ann", "Bob", Capital{I("Cora")}),
		want: "Ann is choosing a capital; your turn to choose comes"},
	{name: "capitals: plan too weak", code: ErrTooWeak, err: capitals(twoCapitals+"\nBrin: Bob 26", "Ann", Plan{I("Alba"), I("Brin")}),
		want: "Alba's attack total 10 is not greater than Brin's defence 26"},
	{name: "capitals: fog: plan too weak", code: ErrTooWeak, err: capitals(twoCapitals+"\nfog: on\nAlba: Ann 12 capital\nBrin: Bob 6\nCora: Bob 20\nEyre: Bob 6", "Ann", Plan{I("Alba"), I("Brin")}),
		want: "Alba's attack total 12 is not greater than Brin's defence 12 (as far as you see)"},
	{name: "capitals: fog: a second plan", code: ErrTooWeak, err: capitals(twoCapitals+"\nfog: on\nAlba: Ann 12 capital\nBrin: Bob 6\nCora: Bob 20\nDale: Ann 30\nGale: Bob 4\nplan: Alba>Brin", "Ann", Plan{I("Dale"), I("Gale")}),
		want: "a 2nd attack would divide every attack by 2: Alba's total on Brin would fall to 6, not greater than its defence 6 (as far as you see)"},
	{name: "capitals: no item", code: ErrNoItem, err: capitals(twoCapitals, "Ann", UseItem{}),
		want: "you hold no item"},
	{name: "capitals: capture another's", code: ErrNotNeutral, err: capitals(twoCapitals+"\nBrin: Bob 3", "Ann", Capture{From: I("Alba"), To: I("Brin")}),
		want: "Brin belongs to Bob: plan an attack on it instead"},
	{name: "capitals: capture after a plan", code: ErrWrongPhase, err: capitals(twoCapitals+"\nBrin: Bob 3\nplan: Alba>Brin", "Ann", Capture{From: I("Alba"), To: I("Dale")}),
		want: "you have planned attacks: launch them (or undo them) before you capture"},
	{name: "capitals: reinforce first", code: ErrWrongPhase, err: capitals(twoCapitals+"\nphase: reinforce\nreserve Ann: 6", "Ann", Capture{From: I("Alba"), To: I("Dale")}),
		want: "first send your reinforcements (6 troops) to one of your territories"},
	{name: "capitals: by sea", code: ErrNotAdjacent, err: capitals(twoCapitals+"\nHook: Bob 1", "Ann", Plan{I("Alba"), I("Hook")}),
		want: "Alba reaches Hook only by sea: build a port on Alba first"},
	{name: "capitals: a move of none", code: ErrNotEnoughArmies, err: capitals(twoCapitals+"\nDale: Ann 2", "Ann", Move{From: I("Dale"), To: I("Alba"), Quarters: 1}),
		want: "Dale has 2 troops: 1/4 of them moves none (one stays unless all go)"},
	{name: "capitals: neutral, not yours", code: ErrNotYourTerritory, err: capitals(twoCapitals, "Ann", Move{From: I("Dale"), To: I("Alba"), Quarters: 1}),
		want: "Dale is neutral, not yours"},
	{name: "capitals: a quarter too many", code: ErrBadArmies, err: capitals(twoCapitals+"\nDale: Ann 2", "Ann", Move{From: I("Alba"), To: I("Dale"), Quarters: 5}),
		want: "move 1/4, 1/2, 3/4 or all of the troops (quarters 1 to 4), not 5"},
	{name: "capitals: not a command", code: ErrBadCommand, err: capitals(twoCapitals, "Ann", Assault{From: I("Alba"), To: I("Brin"), Armies: 1}),
		want: "\"assault\" is not a command of the capitals rules"},
	{name: "capitals: divided", code: ErrTooWeak, err: capitals(twoCapitals+"\nBrin: Bob 9\nDale: Ann 30\nGale: Bob 4\nplan: Dale>Gale", "Ann", Plan{I("Alba"), I("Brin")}),
		want: "Alba's attack total 5 is not greater than Brin's defence 9 (with 2 attacks planned, each is divided by 2)"},
	{name: "capitals: no hero", code: ErrBadCommand, err: capitals(twoCapitals+"\nDale: Ann 2", "Ann", Move{From: I("Alba"), To: I("Dale"), Quarters: 2, Hero: true}),
		want: "you have no hero"},
	{name: "classic: not a command", code: ErrBadCommand, err: classic(annAttacks, "Ann", Plan{T("Alaska"), T("Kamchatka")}),
		want: "\"plan\" is not a command of the classic rules"},
	{name: "fortify: one must stay", code: ErrNotEnoughArmies, err: classic(annAttacks, "Ann", Fortify{From: T("Northwest Territory"), To: T("Alaska"), Armies: 1}),
		want: "no army on Northwest Territory can move: one army must stay"},
	{name: "fortify: not adjacent", code: ErrNotAdjacent, err: classic(annAttacks+"options: fortify=adjacent\nPeru: Ann 2", "Ann", Fortify{From: T("Alaska"), To: T("Peru"), Armies: 1}),
		want: "Alaska does not border Peru (armies move one step per turn)"},
	{name: "occupy first", code: ErrWrongPhase, err: classic(annAttacks+"phase: occupy\noccupy: Alaska Kamchatka 3 4\nKamchatka: Ann 3", "Ann", EndTurn{}),
		want: "first move armies into Kamchatka (occupy)"},
}

// TestRefusalWording raises a refusal of each rule set and each code: its
// English is today's, word for word; its French is French.
func TestRefusalWording(t *testing.T) {
	codes := map[Code]bool{}
	for _, tt := range refusalTests {
		codes[tt.code] = true
		t.Run(tt.name, func(t *testing.T) {
			err := tt.err(t)
			if !errors.Is(err, tt.code) {
				t.Fatalf("got %v, want %v", err, tt.code)
			}
			if got := err.Error(); got != tt.want {
				t.Errorf("English: got %q, want %q", got, tt.want)
			}
			e, ok := IsRule(err)
			if !ok {
				t.Fatalf("%v is not a rule violation", err)
			}
			if got := lang.For(lang.English).Error(err); got != tt.want {
				t.Errorf("a printer's English: got %q, want %q", got, tt.want)
			}
			fr := lang.For(lang.French).Error(err)
			if fr == tt.want {
				t.Errorf("French: got the English %q", fr)
			}
			for _, bad := range []string{"{{", "}}", "<no value>", "%!", "engine."} {
				if strings.Contains(fr, bad) {
					t.Errorf("French %q has %q", fr, bad)
				}
			}
			if w := englishWord.FindString(fr); w != "" {
				t.Errorf("French %q has the English word %q", fr, w)
			}
			checkArgs(t, e.Msg)
		})
	}
	for c := range codeText {
		if !codes[c] {
			t.Errorf("no row raises %v", c)
		}
	}
}

// englishWord finds an English word left in a French sentence (the
// commands' names, which stay English, are not in it).
var englishWord = regexp.MustCompile(`\b(?i:the|you|your|yours|is|are|not|has|have|army|armies|troops?|turn|match|with|and|of|no|nothing|first|already|cards?|dice|die|belongs|border|territory|territories)\b`)

var placeholder = regexp.MustCompile(`\{\{[^}]*?\.(\w+)`)

// checkArgs: every argument of m (and of the messages nested in it) is
// used by its sentence in every language, and every placeholder of the
// sentence is given.
func checkArgs(t *testing.T, m lang.Msg) {
	t.Helper()
	given := map[string]bool{}
	for i := 0; i+1 < len(m.Args); i += 2 {
		name, ok := m.Args[i].(string)
		if !ok {
			t.Errorf("%s: argument %d's name is %v, not a string", m.Key, i/2, m.Args[i])
			continue
		}
		given[name] = true
		if n, ok := m.Args[i+1].(lang.Msg); ok && !n.IsZero() {
			checkArgs(t, n)
		}
	}
	for _, tag := range lang.Tags() {
		raw, err := lang.Raw(tag)
		if err != nil {
			t.Fatal(err)
		}
		forms, ok := raw[m.Key]
		if !ok {
			t.Errorf("%s.json lacks %q", tag, m.Key)
			continue
		}
		used := map[string]bool{}
		for _, f := range forms {
			for _, p := range placeholder.FindAllStringSubmatch(f, -1) {
				used[p[1]] = true
			}
		}
		for name := range given {
			if !used[name] {
				t.Errorf("%s.json %q does not use its argument %s", tag, m.Key, name)
			}
		}
		for name := range used {
			if !given[name] {
				t.Errorf("%s.json %q uses %s, which the engine does not give", tag, m.Key, name)
			}
		}
	}
}

// builtPrefixes are the quoted prefixes of the keys words.go builds.
var builtPrefixes = map[string]bool{`"engine.phase."`: true, `"engine.status."`: true, `"engine.card."`: true}

// TestRefusalKeysHaveFrench walks the engine's code: every key of a
// refusal and of its parts (fail, lang.M) is a literal, in the engine's
// areas, and worded in French (lang's TestKeysUsedExist checks English).
func TestRefusalKeysHaveFrench(t *testing.T) {
	fr, err := lang.Raw(lang.French)
	if err != nil {
		t.Fatal(err)
	}
	files, err := filepath.Glob("*.go")
	if err != nil {
		t.Fatal(err)
	}
	fset := token.NewFileSet()
	n := 0
	for _, name := range files {
		if strings.HasSuffix(name, "_test.go") || name == "errors.go" { // errors.go: fail itself
			continue
		}
		f, err := parser.ParseFile(fset, name, nil, 0)
		if err != nil {
			t.Fatal(err)
		}
		ast.Inspect(f, func(node ast.Node) bool {
			call, ok := node.(*ast.CallExpr)
			if !ok {
				return true
			}
			i := -1
			switch fn := call.Fun.(type) {
			case *ast.Ident:
				switch fn.Name {
				case "fail":
					i = 1
				case "checkRoute": // its refusal's key, which it hands to fail
					i = 4
				}
			case *ast.SelectorExpr:
				if x, ok := fn.X.(*ast.Ident); ok && x.Name == "lang" && fn.Sel.Name == "M" {
					i = 0
				}
			}
			if i < 0 || i >= len(call.Args) {
				return true
			}
			// A key built from an enum's stable name (words.go) is
			// checked value by value by TestEnumWordsExist.
			if b, ok := call.Args[i].(*ast.BinaryExpr); ok && b.Op == token.ADD {
				if lit, ok := b.X.(*ast.BasicLit); ok && builtPrefixes[lit.Value] {
					return true
				}
			}
			if id, ok := call.Args[i].(*ast.Ident); ok && id.Name == "notYours" {
				return true // checkRoute's key, checked at its callers
			}
			lit, ok := call.Args[i].(*ast.BasicLit)
			if !ok || lit.Kind != token.STRING {
				t.Errorf("%s: a key that is not a literal", fset.Position(call.Pos()))
				return true
			}
			key, _ := strconv.Unquote(lit.Value)
			n++
			if !strings.HasPrefix(key, "engine.") && !strings.HasPrefix(key, "n.") {
				t.Errorf("%s: key %q is not the engine's (engine.…) nor a count's (n.…)", fset.Position(lit.Pos()), key)
			}
			if _, ok := fr[key]; !ok {
				t.Errorf("%s: key %q has no French", fset.Position(lit.Pos()), key)
			}
			return true
		})
	}
	if n < 100 {
		t.Errorf("found %d keys in the engine's code, want the refusals' (over 100)", n)
	}
}

// TestRefusalFrench: a refusal reads in French with the places' articles,
// plurals and phases of French.
func TestRefusalFrench(t *testing.T) {
	want := map[string]string{
		"not adjacent":                 "pas de frontière entre l'Alaska et le Groenland",
		"one army":                     "1 armée seulement sur les Territoires du Nord-Ouest : il en faut au moins 2 pour attaquer (une reste sur place)",
		"dice for the armies":          "avec 3 armées sur l'Alberta, tu peux lancer au plus 2 dés",
		"placing in the attack phase":  "tu n'as pas d'armées à placer maintenant (phase d'attaque)",
		"over":                         "la partie est finie : Ann a gagné",
		"not a set":                    "l'Alaska (infanterie), les Territoires du Nord-Ouest (cavalerie) et l'Alberta (infanterie) ne forment pas une combinaison : il faut trois cartes du même type ou une de chaque (un joker compte pour n'importe laquelle)",
		"capitals: fog: a second plan": "une 2e attaque diviserait chaque attaque par 2 : le total d'Alba sur Brin tomberait à 6, pas plus que sa défense (6) (d'après ce que tu vois)",
	}
	for _, tt := range refusalTests {
		w, ok := want[tt.name]
		if !ok {
			continue
		}
		delete(want, tt.name)
		t.Run(tt.name, func(t *testing.T) {
			if got := lang.For(lang.French).Error(tt.err(t)); got != w {
				t.Errorf("got %q, want %q", got, w)
			}
		})
	}
	for name := range want {
		t.Errorf("no row %q", name)
	}
}
