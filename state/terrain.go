package state

import "fmt"

// Terrain is the kind of land of a territory. The renderer textures by it and
// the capitals rule set counts distinct terrains to unlock the hero.
type Terrain uint8

// The terrains. Plain, Forest, Mountain, Desert and Coastal are the five of the
// capitals rule set; Tundra and Jungle only dress the classic world board.
const (
	Plain Terrain = iota
	Forest
	Mountain
	Desert
	Coastal
	Tundra
	Jungle
	NumTerrains int = iota
)

var terrainNames = [NumTerrains]string{"plain", "forest", "mountain", "desert", "coastal", "tundra", "jungle"}

func (t Terrain) String() string {
	if int(t) < NumTerrains {
		return terrainNames[t]
	}
	return fmt.Sprintf("terrain(%d)", uint8(t))
}

// ParseTerrain returns the terrain named s ("plain", "forest", ...).
func ParseTerrain(s string) (Terrain, error) {
	for i, n := range terrainNames {
		if n == s {
			return Terrain(i), nil
		}
	}
	return 0, fmt.Errorf("unknown terrain %q (want one of plain, forest, mountain, desert, coastal, tundra, jungle)", s)
}

// MarshalText encodes the terrain as its name.
func (t Terrain) MarshalText() ([]byte, error) {
	if int(t) >= NumTerrains {
		return nil, fmt.Errorf("state: invalid terrain %d", uint8(t))
	}
	return []byte(t.String()), nil
}

// UnmarshalText decodes a terrain name.
func (t *Terrain) UnmarshalText(b []byte) error {
	v, err := ParseTerrain(string(b))
	if err != nil {
		return err
	}
	*t = v
	return nil
}
