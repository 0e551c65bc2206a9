package mapfile

import (
	"archive/zip"
	"bytes"
	"encoding/binary"
	"fmt"
	"io/fs"
	"path"
	"strings"
)

// ReadZip reads a zip holding a .map file and the two images it names, in
// the .map's folder. Nothing is unpacked to disk, but a zip that would
// unpack outside its folder (a `..`, an absolute path, a symbolic link), or
// holds too many files, or unpacks to too much, is refused as a whole:
// the map maker's tool made something wrong. Sizes are counted as read,
// never taken from the zip's headers.
func ReadZip(data []byte, o Options) (*Board, error) {
	refuse := func(ps ...string) error { return &Error{Name: "the zip", Problems: ps} }
	if len(data) > MaxZipBytes {
		return nil, refuse(fmt.Sprintf("the zip is %s: at most %s", size(int64(len(data))), size(MaxZipBytes)))
	}
	if n, ok := zipEntries(data); ok && n > MaxZipEntries {
		return nil, refuse(fmt.Sprintf("the zip holds %d files: at most %d", n, MaxZipEntries))
	}
	zr, err := zip.NewReader(bytes.NewReader(data), int64(len(data)))
	if err != nil {
		return nil, refuse(fmt.Sprintf("not a zip that can be read: %v", err))
	}
	if len(zr.File) > MaxZipEntries {
		return nil, refuse(fmt.Sprintf("the zip holds %d files: at most %d", len(zr.File), MaxZipEntries))
	}
	var problems []string
	files := map[string]*zip.File{}
	var maps []string
	for _, f := range zr.File {
		name := strings.ReplaceAll(f.Name, "\\", "/")
		if why := unsafeEntry(name); why != "" {
			problems = append(problems, fmt.Sprintf("zip entry %q %s", clip(f.Name), why))
			continue
		}
		if f.Mode()&fs.ModeSymlink != 0 {
			problems = append(problems, fmt.Sprintf("zip entry %q is a symbolic link", clip(f.Name)))
			continue
		}
		if f.Mode().IsDir() || strings.HasSuffix(name, "/") {
			continue
		}
		// macOS adds a shadow of every file (__MACOSX/, ._NAME): not ours.
		if strings.HasPrefix(name, "__MACOSX/") || strings.HasPrefix(path.Base(name), "._") {
			continue
		}
		files[name] = f
		if strings.EqualFold(path.Ext(name), ".map") {
			maps = append(maps, name)
		}
	}
	if len(problems) > 0 {
		return nil, refuse(problems...)
	}
	switch len(maps) {
	case 0:
		return nil, refuse("the zip holds no .map file")
	case 1:
	default:
		return nil, refuse(fmt.Sprintf("the zip holds %d .map files (%s): want one map per zip", len(maps), clip(strings.Join(maps, ", "))))
	}
	left := int64(MaxZipBytes) // what the entries may still unpack to
	read := func(f *zip.File, max int64) ([]byte, error) {
		rc, err := f.Open()
		if err != nil {
			return nil, err
		}
		defer rc.Close()
		b, err := readLimited(rc, min(max, left))
		left -= int64(len(b))
		if err != nil {
			if left <= 0 {
				return nil, fmt.Errorf("the zip unpacks to more than %s", size(MaxZipBytes))
			}
			return nil, err
		}
		return b, nil
	}
	mapName := maps[0]
	text, err := read(files[mapName], MaxTextBytes)
	if err != nil {
		return nil, refuse(fmt.Sprintf("%s: %v", clip(mapName), err))
	}
	if o.Name == "" {
		o.Name = strings.TrimSuffix(path.Base(mapName), path.Ext(mapName))
	}
	return buildFiles(parseText(text, o), Files{Map: text}, o, problems, func(name string) ([]byte, string) {
		want := path.Join(path.Dir(mapName), strings.ReplaceAll(name, "\\", "/"))
		zf := files[want]
		if zf == nil {
			for n, cand := range files { // map makers on Windows mix cases
				if strings.EqualFold(n, want) {
					zf = cand
					break
				}
			}
		}
		if zf == nil {
			return nil, " is not in the zip beside " + clip(path.Base(mapName))
		}
		b, err := read(zf, MaxImageBytes)
		if err != nil {
			return nil, fmt.Sprintf(": %v", err)
		}
		return b, ""
	})
}

// unsafeEntry says why a zip entry's name would unpack outside the zip's
// folder, or "".
func unsafeEntry(name string) string {
	switch {
	case name == "":
		return "has no name"
	case strings.HasPrefix(name, "/") || len(name) >= 2 && name[1] == ':':
		return "has an absolute path: it would unpack outside the map's folder"
	case strings.ContainsRune(name, 0):
		return "has a NUL in its name"
	}
	for _, el := range strings.Split(name, "/") {
		if el == ".." {
			return "climbs out with ..: it would unpack outside the map's folder"
		}
	}
	return ""
}

// zipEntries reads the number of entries a zip's end record announces,
// so that a zip of a million empty entries is refused before its
// directory is read. A zip64 record (0xffff entries) counts as too many:
// a map's zip never needs one.
func zipEntries(data []byte) (int, bool) {
	const endLen = 22
	for i := len(data) - endLen; i >= 0 && i >= len(data)-endLen-0xffff; i-- {
		if string(data[i:i+4]) == "PK\x05\x06" {
			return int(binary.LittleEndian.Uint16(data[i+10 : i+12])), true
		}
	}
	return 0, false
}
