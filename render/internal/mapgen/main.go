// Command mapgen builds the classic board's geometry and the terrain
// textures that the renderer embeds (assets/world).
//
// Geometry comes from Natural Earth (public domain) through the world-atlas
// npm package (ISC). The build runs in two stages:
//
//	mapgen -extract countries-50m.json   # needs the npm file; rewrites source/countries.json
//	mapgen                               # from the committed extract: mask, metadata, textures
//
// `go generate ./render/...` runs the second stage, which needs nothing but
// the repository. The extract keeps simplified rings of the countries, so
// the first stage is only needed to change the source data.
package main

import (
	"bytes"
	"flag"
	"fmt"
	"image"
	"image/png"
	"io/fs"
	"log"
	"os"
	"path/filepath"

	"github.com/riskbot/riskbot/assets"
	"github.com/riskbot/riskbot/state"
)

// params are the board's build settings.
type params struct {
	Width                int
	Lon0, LatMin, LatMax float64
	MagLon, MagLat       float64
	Magnify, MagRadius   float64
	MinPixels            int // land specks smaller than this are dropped
	ContactReach         int // pixels: closer than this counts as touching
}

// classicParams are the classic board's settings.
func classicParams() params {
	return params{
		Width: 3200, Lon0: -169, LatMin: -56, LatMax: 84,
		MagLon: 14, MagLat: 51, Magnify: 1.75, MagRadius: 0.2,
		MinPixels: 6, ContactReach: 2,
	}
}

func main() {
	log.SetFlags(0)
	log.SetPrefix("mapgen: ")
	out := flag.String("out", "assets/world", "output folder (assets/world)")
	extractFrom := flag.String("extract", "", "world-atlas countries-50m.json to extract from (rewrites source/countries.json)")
	textures := flag.Bool("textures", true, "also generate the terrain textures")
	flag.Parse()
	if err := run(*out, *extractFrom, *textures); err != nil {
		log.Fatal(err)
	}
}

func run(out, extractFrom string, textures bool) error {
	srcPath := filepath.Join(out, "source", "countries.json")
	if extractFrom != "" {
		data, err := os.ReadFile(extractFrom)
		if err != nil {
			return err
		}
		cs, err := decodeTopology(data, "countries")
		if err != nil {
			return err
		}
		enc, err := encodeSource(extract(cs, 0.02, 0.02), "world-atlas 2.0.2 countries-50m.json (Natural Earth 4.1.0, 1:50m admin 0 countries)")
		if err != nil {
			return err
		}
		if err := writeFile(srcPath, enc); err != nil {
			return err
		}
	}
	data, err := os.ReadFile(srcPath)
	if err != nil {
		return fmt.Errorf("read the extract (run with -extract first): %w", err)
	}
	cs, err := decodeSource(data)
	if err != nil {
		return err
	}
	mapData, err := fs.ReadFile(assets.Maps, "maps/classic.json")
	if err != nil {
		return err
	}
	m, err := state.ParseMap(mapData)
	if err != nil {
		return err
	}
	geo, mask, err := build(m, cs, classicParams())
	if err != nil {
		return err
	}
	meta, err := marshalGeometry(geo)
	if err != nil {
		return err
	}
	img := &image.Gray{Pix: mask, Stride: geo.Width, Rect: image.Rect(0, 0, geo.Width, geo.Height)}
	var buf bytes.Buffer
	if err := (&png.Encoder{CompressionLevel: png.BestCompression}).Encode(&buf, img); err != nil {
		return err
	}
	if err := writeFile(filepath.Join(out, "classic", "mask.png"), buf.Bytes()); err != nil {
		return err
	}
	if err := writeFile(filepath.Join(out, "classic", "geometry.json"), meta); err != nil {
		return err
	}
	log.Printf("classic: %dx%d mask, %d contacts, %d connectors", geo.Width, geo.Height, len(geo.Contacts), len(geo.Connectors))
	if textures {
		if err := writeTextures(filepath.Join(out, "textures")); err != nil {
			return err
		}
	}
	return nil
}

func writeFile(path string, data []byte) error {
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		return err
	}
	return os.WriteFile(path, data, 0o644)
}
