package main

import (
	"bytes"
	"image"
	"image/png"
	"log"
	"math"
	"path/filepath"
)

// TextureSize is the side of a terrain tile; tiles repeat seamlessly.
const TextureSize = 256

// texture is one tile to generate: a height field and how to light it.
type texture struct {
	name   string
	height func(x, y float64) float64 // on the unit torus
	relief float64                    // hillshade strength
	tone   float64                    // height-to-brightness strength
}

// terrainTextures lists the tiles. They are grey shading maps: 128 leaves
// the owner's colour as it is, lighter and darker values lighten and darken
// it. Each is a height field made of periodic gradient noise, lit from the
// north-west, so relief reads the same whatever the owner's colour.
func terrainTextures() []texture {
	return []texture{
		{"plain", plainHeight, 0.6, 0.25},
		{"forest", forestHeight, 1.1, 0.55},
		{"mountain", mountainHeight, 2.2, 0.35},
		{"desert", desertHeight, 1.0, 0.15},
		{"coastal", coastalHeight, 0.6, 0.2},
		{"tundra", tundraHeight, 0.7, 0.6},
		{"jungle", jungleHeight, 1.2, 0.65},
		{"sea", seaHeight, 0.5, 0.1},
	}
}

func writeTextures(dir string) error {
	tiles := terrainTextures()
	for _, t := range tiles {
		img := shadeTile(t.height, t.relief, t.tone)
		var buf bytes.Buffer
		if err := (&png.Encoder{CompressionLevel: png.BestCompression}).Encode(&buf, img); err != nil {
			return err
		}
		if err := writeFile(filepath.Join(dir, t.name+".png"), buf.Bytes()); err != nil {
			return err
		}
	}
	log.Printf("textures: %d tiles of %dx%d", len(tiles), TextureSize, TextureSize)
	return nil
}

// shadeTile samples a height field and lights it.
func shadeTile(height func(x, y float64) float64, relief, tone float64) *image.Gray {
	const n = TextureSize
	h := make([]float64, n*n)
	mean := 0.0
	for y := range n {
		for x := range n {
			v := height(float64(x)/n, float64(y)/n)
			h[y*n+x] = v
			mean += v
		}
	}
	mean /= n * n
	img := image.NewGray(image.Rect(0, 0, n, n))
	lx, ly, lz := -0.6, -0.6, 0.53 // light from the north-west
	for y := range n {
		for x := range n {
			at := func(dx, dy int) float64 { return h[((y+dy+n)%n)*n+(x+dx+n)%n] }
			gx := (at(1, 0) - at(-1, 0)) * n / 2 * 0.02
			gy := (at(0, 1) - at(0, -1)) * n / 2 * 0.02
			nx, ny, nz := -gx, -gy, 1.0
			l := math.Sqrt(nx*nx + ny*ny + nz*nz)
			shade := (nx*lx+ny*ly+nz*lz)/l - lz // 0 on flat ground
			v := 128 + 128*(relief*shade+tone*(h[y*n+x]-mean))
			img.Pix[y*n+x] = uint8(math.Max(0, math.Min(255, math.Round(v))))
		}
	}
	return img
}

// noise is 2-D gradient noise with period p lattice cells, sampled on the
// unit torus, in about [-1, 1].
func noise(x, y float64, p int, seed uint32) float64 {
	x *= float64(p)
	y *= float64(p)
	x0, y0 := math.Floor(x), math.Floor(y)
	fx, fy := x-x0, y-y0
	ix, iy := int(x0), int(y0)
	grad := func(i, j int) (float64, float64) {
		i, j = ((i%p)+p)%p, ((j%p)+p)%p
		a := float64(hash(uint32(i), uint32(j), seed)) / float64(1<<32) * 2 * math.Pi
		return math.Cos(a), math.Sin(a)
	}
	dot := func(i, j int, dx, dy float64) float64 {
		gx, gy := grad(ix+i, iy+j)
		return gx*dx + gy*dy
	}
	fade := func(t float64) float64 { return t * t * t * (t*(t*6-15) + 10) }
	u, v := fade(fx), fade(fy)
	n00 := dot(0, 0, fx, fy)
	n10 := dot(1, 0, fx-1, fy)
	n01 := dot(0, 1, fx, fy-1)
	n11 := dot(1, 1, fx-1, fy-1)
	return 1.4 * lerp(lerp(n00, n10, u), lerp(n01, n11, u), v)
}

func lerp(a, b, t float64) float64 { return a + (b-a)*t }

// hash mixes lattice coordinates into 32 random-looking bits.
func hash(x, y, seed uint32) uint32 {
	h := x*0x8da6b343 ^ y*0xd8163841 ^ seed*0xcb1ab31f
	h ^= h >> 15
	h *= 0x2c1b3c6d
	h ^= h >> 12
	h *= 0x297a2d39
	h ^= h >> 15
	return h
}

// fbm sums octaves of noise, each twice the frequency and gain times the
// amplitude of the last.
func fbm(x, y float64, p, octaves int, gain float64, seed uint32) float64 {
	s, a, norm := 0.0, 1.0, 0.0
	for o := range octaves {
		s += a * noise(x, y, p<<o, seed+uint32(o)*977)
		norm += a
		a *= gain
	}
	return s / norm
}

// cells is periodic Worley noise: the distance to the nearest of one jittered
// point per cell of a p x p grid, in cell units.
func cells(x, y float64, p int, seed uint32) float64 {
	x *= float64(p)
	y *= float64(p)
	cx, cy := int(math.Floor(x)), int(math.Floor(y))
	best := 9.0
	for j := -1; j <= 1; j++ {
		for i := -1; i <= 1; i++ {
			gx, gy := cx+i, cy+j
			wx, wy := ((gx%p)+p)%p, ((gy%p)+p)%p
			h := hash(uint32(wx), uint32(wy), seed)
			px := float64(gx) + float64(h&0xffff)/65536
			py := float64(gy) + float64(h>>16)/65536
			best = math.Min(best, math.Hypot(x-px, y-py))
		}
	}
	return best
}

func smoothstep(a, b, x float64) float64 {
	t := math.Max(0, math.Min(1, (x-a)/(b-a)))
	return t * t * (3 - 2*t)
}

func plainHeight(x, y float64) float64 {
	// Gentle rolling ground with faint field strips.
	f := fbm(x, y, 4, 4, 0.5, 11)
	strips := 0.08 * math.Sin(2*math.Pi*(x*24+2*fbm(x, y, 3, 2, 0.5, 12)))
	return 0.5 + 0.3*f + strips*smoothstep(-0.1, 0.3, fbm(x, y, 3, 2, 0.5, 13))
}

func forestHeight(x, y float64) float64 {
	// Round tree crowns on a slowly varying canopy.
	c := cells(x, y, 22, 21)
	crown := math.Max(0, 1-c*c*1.6)
	return 0.35*crown + 0.25*fbm(x, y, 4, 3, 0.5, 22) + 0.1*fbm(x, y, 32, 2, 0.5, 23)
}

func mountainHeight(x, y float64) float64 {
	// Ridged noise: sharp crests and valleys.
	s, a, norm := 0.0, 1.0, 0.0
	for o := range 5 {
		r := 1 - math.Abs(noise(x, y, 3<<o, 31+uint32(o)))
		s += a * r * r
		norm += a
		a *= 0.5
	}
	return s / norm
}

func desertHeight(x, y float64) float64 {
	// Wind-blown dunes: warped, asymmetric ripples.
	w := fbm(x, y, 3, 3, 0.5, 41)
	t := x*10 + y*4 + 2.2*w
	ph := t - math.Floor(t)
	dune := smoothstep(0, 0.75, ph) - smoothstep(0.75, 1, ph)
	return 0.25*dune + 0.2*fbm(x, y, 6, 3, 0.5, 42)
}

func coastalHeight(x, y float64) float64 {
	return 0.5 + 0.25*fbm(x, y, 5, 4, 0.5, 51) + 0.08*math.Sin(2*math.Pi*(y*18+fbm(x, y, 4, 2, 0.5, 52)))
}

func tundraHeight(x, y float64) float64 {
	// Snow patches over frozen ground, with scattered stones.
	f := fbm(x, y, 4, 5, 0.55, 61)
	snow := smoothstep(0.02, 0.18, f)
	return 0.35*snow + 0.12*fbm(x, y, 24, 2, 0.5, 62)
}

func jungleHeight(x, y float64) float64 {
	// Dense, uneven canopy.
	c := cells(x, y, 34, 71)
	crown := math.Max(0, 1-c*c*1.4)
	return 0.3*crown + 0.3*fbm(x, y, 5, 4, 0.55, 72)
}

func seaHeight(x, y float64) float64 {
	// Long low swells.
	return 0.5 + 0.5*fbm(x, y+0.3*fbm(x, y, 2, 2, 0.5, 81), 3, 3, 0.45, 82)
}
