package render

import (
	"bytes"
	"compress/zlib"
	"context"
	"crypto/sha256"
	"encoding/binary"
	"encoding/hex"
	"fmt"
	"hash/crc32"
	"image"
	"image/color"
	"image/png"
	"io"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"

	"github.com/riskbot/riskbot/internal/racetest"
	"github.com/riskbot/riskbot/render/internal/pngbands"
	"github.com/riskbot/riskbot/state"
)

// drawFrame returns the frame a renderer draws for the moment from
// scratch (no frame before it): the palette indices that the standard
// library's encoder was given before issue 48.
func drawFrame(t testing.TB, r *Renderer, m momentSet, k int) *image.Paletted {
	t.Helper()
	wk, _, err := r.draw(context.Background(), m.states[k], nil, true, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer r.workers.put(wk)
	img := image.NewPaletted(wk.pal.Rect, wk.pal.Palette)
	copy(img.Pix, wk.pal.Pix)
	return img
}

// TestBandsMoments renders every moment of played matches in order, as the
// bot does, each frame drawn over the moment before and its PNG made with
// what that moment left (incremental.go, frames.go), and requires of each:
// that image/png decodes it to the very palette and indices of the frame
// drawn from scratch; that compress/zlib inflates its image data (its
// Adler-32 checked) to the frame's rows; and that it is at most 1.1 times
// the standard library's BestSpeed PNG of the frame. Every third moment a
// zoom is drawn in between, with the same workers. At the default width
// and the narrowest, where the panel's cards are closest.
func TestBandsMoments(t *testing.T) {
	var sets []momentSet
	widths := []int{DefaultWidth, minWidth}
	if testing.Short() || racetest.Enabled {
		// The race detector makes a moment some ten times slower; the
		// concurrency is TestBandsConcurrent's.
		sets, widths = earlyMoments(t, 6), widths[:1]
	} else {
		sets = playedMoments(t, 30)
	}
	for _, width := range widths {
		// One renderer for the matches (its frames are kept by match),
		// another, shared, draws each frame from scratch.
		r, fresh := New(Options{Width: width}), shared(Options{Width: width})
		for _, m := range sets {
			t.Run(fmt.Sprint(m.name, width), func(t *testing.T) { checkMoments(t, r, fresh, m) })
		}
	}
}

func checkMoments(t *testing.T, r, fresh *Renderer, m momentSet) {
	var reused, tiles, over int
	for k, s := range m.states {
		got, err := r.Render(context.Background(), s)
		if err != nil {
			t.Fatal(err)
		}
		want := drawFrame(t, fresh, m, k)
		checkPNG(t, fmt.Sprintf("moment %d", k), got, want)
		if e := lastFrameOf(r); e.over {
			over++
		}
		if k%3 == 1 {
			if _, err := r.Zoom(context.Background(), s, []int{0, 1}); err != nil {
				t.Fatal(err)
			}
		}

		var std bytes.Buffer
		if err := (&png.Encoder{CompressionLevel: png.BestSpeed}).Encode(&std, want); err != nil {
			t.Fatal(err)
		}
		if len(got) > std.Len()*11/10 {
			t.Errorf("moment %d: %d bytes, image/png's %d: more than 1.1 times", k, len(got), std.Len())
		}
		if k > 0 {
			e := lastFrameOf(r)
			kept, n := e.enc.Kept()
			reused += kept
			tiles += n
		}
	}
	// Most of a frame is what it was the moment before: the renderer
	// must have drawn each frame over the one before, and the encoder
	// found most tiles unchanged.
	if over != len(m.states)-1 {
		t.Errorf("%d of %d moments drawn over the moment before, want all but the first", over, len(m.states))
	}
	if reused*2 < tiles {
		t.Errorf("%d tiles of %d kept from the moment before, want at least half", reused, tiles)
	}
}

// lastFrameOf returns what r keeps of the last frame it encoded.
func lastFrameOf(r *Renderer) *lastFrame {
	r.frames.mu.Lock()
	defer r.frames.mu.Unlock()
	return r.frames.frames[len(r.frames.frames)-1]
}

// checkPNG decodes data with image/png and with compress/zlib on its image
// data, and requires want's palette and indices of both.
func checkPNG(t *testing.T, what string, data []byte, want *image.Paletted) {
	t.Helper()
	img, err := png.Decode(bytes.NewReader(data))
	if err != nil {
		t.Fatalf("%s: image/png: %v", what, err)
	}
	got, ok := img.(*image.Paletted)
	if !ok {
		t.Fatalf("%s: decodes as %T, want paletted", what, img)
	}
	if got.Rect != want.Rect || !slices.Equal(got.Palette, want.Palette) {
		t.Fatalf("%s: image/png decodes %v with %d colours, want %v with %d", what, got.Rect, len(got.Palette), want.Rect, len(want.Palette))
	}
	if i := firstDiff(got.Pix, want.Pix); i >= 0 {
		t.Fatalf("%s: image/png decodes index %d at (%d, %d), want %d", what, got.Pix[i], i%want.Stride, i/want.Stride, want.Pix[i])
	}
	raw := inflateIDAT(t, what, data)
	w, h := want.Rect.Dx(), want.Rect.Dy()
	if len(raw) != (w+1)*h {
		t.Fatalf("%s: compress/zlib inflates %d bytes, want %d", what, len(raw), (w+1)*h)
	}
	for y := range h {
		row := raw[y*(w+1) : (y+1)*(w+1)]
		if row[0] != 0 {
			t.Fatalf("%s: row %d has filter %d, want 0", what, y, row[0])
		}
		if i := firstDiff(row[1:], want.Pix[y*want.Stride:y*want.Stride+w]); i >= 0 {
			t.Fatalf("%s: compress/zlib inflates index %d at (%d, %d), want %d", what, row[1+i], i, y, want.Pix[y*want.Stride+i])
		}
	}
}

func firstDiff(a, b []uint8) int {
	for i := range min(len(a), len(b)) {
		if a[i] != b[i] {
			return i
		}
	}
	if len(a) != len(b) {
		return min(len(a), len(b))
	}
	return -1
}

// inflateIDAT checks the CRC of every chunk of a PNG and returns its image
// data inflated by compress/zlib, read to the end (which checks the
// Adler-32).
func inflateIDAT(t *testing.T, what string, data []byte) []byte {
	t.Helper()
	if !bytes.HasPrefix(data, []byte("\x89PNG\r\n\x1a\n")) {
		t.Fatalf("%s: no PNG signature", what)
	}
	var idat []byte
	for p := data[8:]; len(p) > 0; {
		if len(p) < 12 {
			t.Fatalf("%s: a chunk cut short", what)
		}
		n := int(binary.BigEndian.Uint32(p))
		if len(p) < 12+n {
			t.Fatalf("%s: chunk %q cut short", what, p[4:8])
		}
		if got, want := binary.BigEndian.Uint32(p[8+n:]), crc32.ChecksumIEEE(p[4:8+n]); got != want {
			t.Fatalf("%s: chunk %q has CRC %08x, want %08x", what, p[4:8], got, want)
		}
		if string(p[4:8]) == "IDAT" {
			idat = append(idat, p[8:8+n]...)
		}
		p = p[12+n:]
	}
	zr, err := zlib.NewReader(bytes.NewReader(idat))
	if err != nil {
		t.Fatalf("%s: zlib: %v", what, err)
	}
	raw, err := io.ReadAll(zr)
	if err != nil {
		t.Fatalf("%s: zlib: %v", what, err)
	}
	return raw
}

// TestBandsPython has an independent decoder, Python's zlib (the C zlib),
// check the PNGs of moments made after the moment before: each chunk's
// CRC, the image data inflated (its Adler-32 checked), unfiltered rows,
// and a hash of the indices, which must be the frame's.
func TestBandsPython(t *testing.T) {
	python, err := exec.LookPath("python3")
	if err != nil {
		t.Skip("no python3")
	}
	dir := t.TempDir()
	var want []string
	r, fresh := New(Options{}), shared(Options{})
	for _, m := range earlyMoments(t, 3) {
		for k, s := range m.states {
			data, err := r.Render(context.Background(), s)
			if err != nil {
				t.Fatal(err)
			}
			name := filepath.Join(dir, fmt.Sprintf("%s-%d.png", m.name, k))
			if err := os.WriteFile(name, data, 0o644); err != nil {
				t.Fatal(err)
			}
			sum := sha256.Sum256(drawFrame(t, fresh, m, k).Pix)
			want = append(want, fmt.Sprintf("%s %s", filepath.Base(name), hex.EncodeToString(sum[:])))
		}
	}
	const script = `
import glob, hashlib, os, struct, sys, zlib
for name in sorted(glob.glob(os.path.join(sys.argv[1], "*.png"))):
    data = open(name, "rb").read()
    assert data[:8] == b"\x89PNG\r\n\x1a\n", name
    p, idat = 8, b""
    while p < len(data):
        n, kind = struct.unpack(">I4s", data[p:p+8])
        body = data[p+8:p+8+n]
        (crc,) = struct.unpack(">I", data[p+8+n:p+12+n])
        assert zlib.crc32(kind + body) == crc, (name, kind)
        if kind == b"IHDR":
            w, h, depth, ctype = struct.unpack(">IIBB", body[:10])
            assert (depth, ctype) == (8, 3), name
        if kind == b"IDAT":
            idat += body
        p += 12 + n
    d = zlib.decompressobj()
    raw = d.decompress(idat) + d.flush()
    assert d.eof and not d.unused_data, name
    assert len(raw) == (w + 1) * h, name
    rows = [raw[y*(w+1):(y+1)*(w+1)] for y in range(h)]
    assert all(r[0] == 0 for r in rows), name
    print(os.path.basename(name), hashlib.sha256(b"".join(r[1:] for r in rows)).hexdigest())
`
	out, err := exec.Command(python, "-c", script, dir).CombinedOutput()
	if err != nil {
		t.Fatalf("python3: %v\n%s", err, out)
	}
	slices.Sort(want)
	if got := strings.TrimSpace(string(out)); got != strings.Join(want, "\n") {
		t.Errorf("python3 decodes:\n%s\nwant:\n%s", out, strings.Join(want, "\n"))
	}
}

// FuzzBands encodes an image, then the same image with some rectangles
// changed, then the first again, with one encoder (which reuses what did
// not change, and keeps its bands' codes while they pay), and requires
// each PNG to decode to its image's pixels.
func FuzzBands(f *testing.F) {
	f.Add(uint64(1), uint16(1600), uint16(40), uint8(200), []byte{10, 3, 30, 4, 7})
	f.Add(uint64(2), uint16(401), uint16(33), uint8(17), []byte{0, 0, 255, 255, 1, 200, 15, 3, 3, 9})
	f.Add(uint64(3), uint16(1), uint16(1), uint8(255), []byte{0, 0, 1, 1, 0})
	f.Add(uint64(4), uint16(3200), uint16(17), uint8(64), []byte{})
	f.Fuzz(func(t *testing.T, seed uint64, w, h uint16, colours uint8, changes []byte) {
		width, height := 1+int(w)%3200, 1+int(h)%80
		n := 17 + int(colours)%240
		rng := rand.New(rand.NewPCG(seed, 48))
		pal := make(color.Palette, n)
		for i := range pal {
			pal[i] = color.RGBA{uint8(i), uint8(i * 7), uint8(i * 13), 255}
		}
		a := image.NewPaletted(image.Rect(0, 0, width, height), pal)
		for i := range a.Pix {
			// Runs, copies of the row above, repeats and noise: what a
			// map has, so that every kind of match is found.
			x, y := i%width, i/width
			switch v := rng.IntN(16); {
			case v < 6 && x > 0:
				a.Pix[i] = a.Pix[i-1]
			case v < 11 && y > 0:
				a.Pix[i] = a.Pix[i-width]
			case v < 13 && x >= 7:
				a.Pix[i] = a.Pix[i-7]
			default:
				a.Pix[i] = uint8(rng.IntN(n))
			}
		}
		b := image.NewPaletted(a.Rect, pal)
		copy(b.Pix, a.Pix)
		for c := changes; len(c) >= 5; c = c[5:] {
			x0, y0 := int(c[0])*width/256, int(c[1])*height/256
			x1, y1 := x0+1+int(c[2])*width/256, y0+1+int(c[3])*height/256
			for y := y0; y < min(y1, height); y++ {
				for x := x0; x < min(x1, width); x++ {
					b.Pix[y*width+x] = uint8((int(c[4]) + x*y) % n)
				}
			}
		}
		var e pngbands.Encoder
		for i, img := range []*image.Paletted{a, b, a} {
			got, err := e.Encode(img, nil)
			if err != nil {
				t.Fatal(err)
			}
			checkPNG(t, fmt.Sprintf("image %d", i), got, img)
		}
	})
}

// TestBandsConcurrent renders the moments of two matches from four
// goroutines at once with one renderer, so that encoders are taken, kept
// and handed from match to match while others encode, and requires every
// PNG to decode to its frame. Run it with -race.
func TestBandsConcurrent(t *testing.T) {
	sets := earlyMoments(t, 4)
	rounds := 3
	if racetest.Enabled {
		rounds = 1
	}
	want := map[string]*image.Paletted{}
	fresh := shared(Options{})
	for _, m := range sets {
		for k := range m.states {
			want[fmt.Sprint(m.name, k)] = drawFrame(t, fresh, m, k)
		}
	}
	r := New(Options{})
	var wg sync.WaitGroup
	for g := range 4 {
		wg.Go(func() {
			m := sets[g%2]
			for round := range rounds {
				for k, s := range m.states {
					got, err := r.Render(context.Background(), s)
					if err != nil {
						t.Error(err)
						return
					}
					img, err := png.Decode(bytes.NewReader(got))
					if err != nil {
						t.Error(err)
						return
					}
					if w := want[fmt.Sprint(m.name, k)]; !bytes.Equal(img.(*image.Paletted).Pix, w.Pix) {
						t.Errorf("goroutine %d, round %d: %s moment %d does not decode to its frame", g, round, m.name, k)
					}
				}
			}
		})
	}
	wg.Wait()
}

// TestWorkerAffinity renders the next moment of a match while another
// worker is idle, put back after the one that drew the moment before, and
// requires the render to take the one that holds its frame (which need
// not copy it: workerPool).
func TestWorkerAffinity(t *testing.T) {
	m := earlyMoments(t, 2)[0]
	r := New(Options{})
	ctx := context.Background()
	if _, err := r.Render(ctx, m.states[0]); err != nil {
		t.Fatal(err)
	}
	drew := r.workers.get(nil) // the only one idle
	other, err := r.workerFrom(nil, drew.b)
	if err != nil {
		t.Fatal(err)
	}
	r.workers.put(drew)
	r.workers.put(other)
	if _, err := r.Render(ctx, m.states[1]); err != nil {
		t.Fatal(err)
	}
	if other.heldBy != nil || drew.heldBy == nil {
		t.Errorf("the second moment was drawn by the worker that did not draw the first")
	}
}

// TestMatchesInTurnKeepTheirFrames draws the moments of two matches in
// turn, as two channels posting alternately do: each keeps a worker that
// holds its frame, so that its next moment is drawn over it (before, the
// second match took the first one's worker and its frame).
func TestMatchesInTurnKeepTheirFrames(t *testing.T) {
	ms := earlyMoments(t, 2)
	r := New(Options{})
	ctx := context.Background()
	for k := range 2 {
		for _, m := range ms {
			if _, err := r.Render(ctx, m.states[k]); err != nil {
				t.Fatal(err)
			}
		}
		held := 0
		for _, wk := range r.workers.idle {
			if wk.heldBy != nil {
				held++
			}
		}
		if held != len(ms) {
			t.Errorf("after round %d, %d idle workers hold a frame, want %d (one a match)", k+1, held, len(ms))
		}
	}
}

// TestTileGeometry checks that a map tile (8 px, incremental.go) lies in
// one of the encoder's tiles (hintTiles).
func TestTileGeometry(t *testing.T) {
	if pngbands.TileWidth%tileSize != 0 || pngbands.BandRows%tileSize != 0 {
		t.Errorf("tiles of %d x %d px do not hold whole map tiles of %d px", pngbands.TileWidth, pngbands.BandRows, tileSize)
	}
}

// TestWonFrameKeepsCardTops draws the frame of a won match over the
// frame before, where a losing card's numbers alone changed, and requires
// the frame drawn anew. The banner's frames map the panel whole, and the
// card kept its top to the ground: the loser's name and swatch were lost
// from the final map.
func TestWonFrameKeepsCardTops(t *testing.T) {
	s := earlyMoments(t, 1)[0].states[0]
	r := New(Options{})
	ctx := context.Background()
	if _, err := r.Render(ctx, s); err != nil {
		t.Fatal(err)
	}
	// The loser's card's numbers change twice, not its top: drawn whole,
	// then its numbers alone.
	loser := (s.Current + 1) % len(s.Seats)
	more := func(s *state.State) *state.State {
		s = s.Clone()
		for i := range s.Terr {
			if s.Terr[i].Owner == loser {
				s.Terr[i].Armies++
				break
			}
		}
		return s
	}
	next := more(s)
	if _, err := r.Render(ctx, next); err != nil {
		t.Fatal(err)
	}
	won := more(next)
	won.Phase, won.Winner = state.PhaseOver, s.Current
	got, err := r.Render(ctx, won)
	if err != nil {
		t.Fatal(err)
	}
	fresh, err := New(Options{}).Render(ctx, won)
	if err != nil {
		t.Fatal(err)
	}
	want, err := png.Decode(bytes.NewReader(fresh))
	if err != nil {
		t.Fatal(err)
	}
	checkPNG(t, "the won frame drawn over the one before", got, want.(*image.Paletted))
}
