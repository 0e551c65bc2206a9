package voice

import (
	"go/ast"
	"go/parser"
	"go/token"
	"os"
	"sort"
	"strings"
	"testing"
)

// maxMethods is the most methods (exported or not) a type of the package
// may have: the voice is split by job (Teller, Turns, Replies, ...), and a
// new mode adds a file to the jobs it speaks in rather than methods to one
// type that knows everything.
const maxMethods = 25

// TestTypesStaySmall counts, over the package's non-test files, the
// methods declared on each type, and fails for every type above
// maxMethods.
func TestTypesStaySmall(t *testing.T) {
	fset := token.NewFileSet()
	entries, err := os.ReadDir(".")
	if err != nil {
		t.Fatal(err)
	}
	count := map[string]int{}
	for _, e := range entries {
		name := e.Name()
		if !strings.HasSuffix(name, ".go") || strings.HasSuffix(name, "_test.go") {
			continue
		}
		f, err := parser.ParseFile(fset, name, nil, 0)
		if err != nil {
			t.Fatal(err)
		}
		for _, d := range f.Decls {
			if fd, ok := d.(*ast.FuncDecl); ok && fd.Recv != nil {
				count[receiverType(fd.Recv.List[0].Type)]++
			}
		}
	}
	if count["Voice"] == 0 {
		t.Fatalf("found no methods of Voice: got %v", count)
	}
	types := make([]string, 0, len(count))
	for typ := range count {
		types = append(types, typ)
	}
	sort.Strings(types)
	for _, typ := range types {
		if n := count[typ]; n > maxMethods {
			t.Errorf("%s has %d methods, want at most %d: split it by job, or give the new words their own type", typ, n, maxMethods)
		}
	}
}

// receiverType is the name of a method's receiver type: "Voice" for
// Voice, *Voice or a generic T[K].
func receiverType(e ast.Expr) string {
	for {
		switch x := e.(type) {
		case *ast.StarExpr:
			e = x.X
		case *ast.IndexExpr:
			e = x.X
		case *ast.IndexListExpr:
			e = x.X
		case *ast.Ident:
			return x.Name
		default:
			return "?"
		}
	}
}
