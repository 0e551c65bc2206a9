package genmap

import (
	"go/ast"
	"go/parser"
	"go/token"
	"path/filepath"
	"strings"
	"testing"
)

// TestNoFloatingPoint keeps floating point out of the generator: Go may
// fuse a multiply and an add on one architecture and not on another, and a
// coastline moved by one cell is another map for every match stored under
// that name. The rule is checked on the source, since no test can run on
// every architecture.
func TestNoFloatingPoint(t *testing.T) {
	files, err := filepath.Glob("*.go")
	if err != nil {
		t.Fatal(err)
	}
	fset := token.NewFileSet()
	for _, f := range files {
		if strings.HasSuffix(f, "_test.go") {
			continue
		}
		file, err := parser.ParseFile(fset, f, nil, 0)
		if err != nil {
			t.Fatal(err)
		}
		for _, imp := range file.Imports {
			if p := strings.Trim(imp.Path.Value, `"`); p == "math" || p == "math/rand" || p == "math/rand/v2" {
				t.Errorf("%s imports %s", f, p)
			}
		}
		ast.Inspect(file, func(n ast.Node) bool {
			switch n := n.(type) {
			case *ast.Ident:
				if n.Name == "float32" || n.Name == "float64" || n.Name == "complex64" || n.Name == "complex128" {
					t.Errorf("%s: %s", fset.Position(n.Pos()), n.Name)
				}
			case *ast.BasicLit:
				if n.Kind == token.FLOAT || n.Kind == token.IMAG {
					t.Errorf("%s: floating-point literal %s", fset.Position(n.Pos()), n.Value)
				}
			}
			return true
		})
	}
}
