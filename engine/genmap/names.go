package genmap

import (
	"errors"
	"strings"

	"github.com/riskbot/riskbot/state"
)

// Names are built from curated syllables: a start, then either an ending
// that begins with a consonant (after an optional linking vowel) or one
// that begins with a vowel. Starts end in a consonant, so the joints are
// always consonant–vowel or a soft cluster ("Bal|dor", "Bal|a|mir",
// "Bal|ora"). The syllables were picked to read easily in English and to
// avoid rude words; blocked catches what their joints could still spell.
var (
	starts = [...]string{
		"Al", "Ar", "Bal", "Bel", "Bor", "Bran", "Cal", "Cor", "Dal", "Dar",
		"Del", "Dun", "El", "Er", "Fal", "Fen", "Gal", "Gar", "Gil", "Hal",
		"Hel", "Il", "Ir", "Jor", "Kal", "Kel", "Kor", "Lan", "Lor", "Mal",
		"Mer", "Mor", "Nal", "Nor", "Ol", "Or", "Pel", "Quel", "Ral", "Ren",
		"Sal", "Sel", "Sor", "Tal", "Tam", "Tor", "Ul", "Val", "Ven", "Vor",
		"Wal", "Wen", "Yar", "Zan", "Zel",
	}
	links = [...]string{"a", "e", "i", "o"}
	// consonantEnds begin with a consonant.
	consonantEnds = [...]string{
		"dor", "gard", "holm", "mar", "ven", "wyn", "thas", "rin", "nor", "mir",
		"dell", "ford", "wick", "mont", "stad", "vale", "ton", "brek", "lan", "ros",
	}
	// vowelEnds begin with a vowel and follow a start directly.
	vowelEnds = [...]string{"ia", "ora", "ara", "ine", "ene", "eth", "ond", "ast", "uin", "ian"}
	// blocked are strings no name may contain, whatever the joint: rude
	// words, and a place from famous fiction the syllables can spell.
	blocked = [...]string{
		"mordor",
		"ass", "cum", "cunt", "dick", "dik", "fag", "fuc", "fuk", "kkk", "nazi",
		"negr", "nig", "pis", "porn", "rape", "sex", "shit", "slut", "tit", "twat",
		"wank", "whor", "damn", "hell", "anal", "anus", "coon", "spic", "kike",
	}
)

// regionWords name a region after the terrain most of its territories
// share; titleForms frame the map's own name.
var (
	regionWords = [state.NumTerrains][2]string{
		state.Plain:    {"Fields", "Vale"},
		state.Forest:   {"Woods", "Weald"},
		state.Mountain: {"Heights", "Peaks"},
		state.Desert:   {"Sands", "Wastes"},
		state.Coastal:  {"Shores", "Coast"},
	}
	titleForms = [2][3][2]string{
		{{"Realm of ", ""}, {"The Lands of ", ""}, {"", " Reach"}},       // one landmass
		{{"The ", " Isles"}, {"", " Archipelago"}, {"The ", " Islands"}}, // several
	}
)

// word makes one name.
func word(r *rng) string {
	s := starts[r.intn(len(starts))]
	switch r.intn(3) {
	case 0:
		return s + consonantEnds[r.intn(len(consonantEnds))]
	case 1:
		return s + links[r.intn(len(links))] + consonantEnds[r.intn(len(consonantEnds))]
	}
	return s + vowelEnds[r.intn(len(vowelEnds))]
}

// clean reports whether w avoids the blocked strings.
func clean(w string) bool {
	l := strings.ToLower(w)
	for _, b := range blocked {
		if strings.Contains(l, b) {
			return false
		}
	}
	return true
}

// prefix3 is the first three letters of a name, lower-cased: players type
// prefixes, so no two territories may share theirs.
func prefix3(w string) string {
	return strings.ToLower(w[:min(3, len(w))])
}

type names struct {
	title       string
	territories []string
	regions     []string
}

var errNames = errors.New("genmap: ran out of names")

// chooseNames names the n territories, the regions (after their most common
// terrain) and the map (isles when there are several islands). Territory
// names are unique in their first three letters; no name is used twice
// anywhere.
func chooseNames(r *rng, n int, regions [][]int, ter []state.Terrain, islands int) (names, error) {
	var out names
	used := map[string]bool{}       // membership only: never ranged over
	usedPrefix := map[string]bool{} // idem
	pick := func(unique3 bool) (string, error) {
		for range 200 {
			w := word(r)
			if len(w) > 10 || !clean(w) || used[w] || (unique3 && usedPrefix[prefix3(w)]) {
				continue
			}
			used[w] = true
			if unique3 {
				usedPrefix[prefix3(w)] = true
			}
			return w, nil
		}
		return "", errNames
	}
	for range n {
		w, err := pick(true)
		if err != nil {
			return names{}, err
		}
		out.territories = append(out.territories, w)
	}
	for _, reg := range regions {
		var count [state.NumTerrains]int
		most := reg[0]
		for _, t := range reg {
			count[ter[t]]++
			if count[ter[t]] > count[ter[most]] {
				most = t
			}
		}
		w, err := pick(false)
		if err != nil {
			return names{}, err
		}
		words := regionWords[ter[most]]
		k := r.intn(2)
		if strings.HasSuffix(strings.ToLower(w), strings.ToLower(words[k])) {
			k = 1 - k // not "Nalvale Vale"
		}
		out.regions = append(out.regions, w+" "+words[k])
	}
	w, err := pick(false)
	if err != nil {
		return names{}, err
	}
	forms := titleForms[min(1, islands-1)]
	f := forms[r.intn(len(forms))]
	out.title = f[0] + w + f[1]
	return out, nil
}
