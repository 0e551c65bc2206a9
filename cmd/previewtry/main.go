package main

import (
	"context"
	"fmt"
	"os"

	"github.com/riskbot/riskbot/engine"
	"github.com/riskbot/riskbot/engine/mapfile"
	"github.com/riskbot/riskbot/render"
)

func main() {
	var err error
	b, err := mapfile.ReadPath(os.Args[1], mapfile.Options{})
	if err != nil {
		m, err2 := engine.LoadMap(os.Args[1])
		if err2 != nil {
			panic(err)
		}
		png, err := render.New(render.Options{}).Preview(context.Background(), m)
		if err != nil {
			panic(err)
		}
		os.WriteFile("/tmp/preview.png", png, 0o644)
		return
	}
	png, err := render.New(render.Options{}).Preview(context.Background(), b.Map)
	if err != nil {
		panic(err)
	}
	os.WriteFile("/tmp/preview.png", png, 0o644)
	fmt.Println(len(png))
}
