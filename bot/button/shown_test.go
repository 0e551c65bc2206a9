package button

import (
	"go/ast"
	"go/parser"
	"go/token"
	"io/fs"
	"path/filepath"
	"strings"
	"testing"
)

// TestEveryActionCanBeShown checks that each action is carried by some
// button the bot can post: its constant is an argument of an ID's making
// (ID, or a match's ButtonID) in the bot's code, not only of a handler. An
// action no post carries is a handler no one can reach.
func TestEveryActionCanBeShown(t *testing.T) {
	fset := token.NewFileSet()
	consts := constants(t, fset)
	shown := map[Action]bool{}
	err := filepath.WalkDir("..", func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() || !strings.HasSuffix(path, ".go") || strings.HasSuffix(path, "_test.go") {
			return nil
		}
		f, err := parser.ParseFile(fset, path, nil, 0)
		if err != nil {
			return err
		}
		ast.Inspect(f, func(n ast.Node) bool {
			call, ok := n.(*ast.CallExpr)
			if !ok {
				return true
			}
			name := ""
			switch fn := call.Fun.(type) {
			case *ast.SelectorExpr:
				name = fn.Sel.Name
			case *ast.Ident:
				name = fn.Name
			}
			if name != "ID" && name != "ButtonID" {
				return true
			}
			for _, arg := range call.Args {
				if sel, ok := arg.(*ast.SelectorExpr); ok {
					if pkg, ok := sel.X.(*ast.Ident); ok && pkg.Name == "button" {
						a, ok := consts[sel.Sel.Name]
						if !ok {
							t.Errorf("%s: button.%s is not an action", fset.Position(sel.Pos()), sel.Sel.Name)
						}
						shown[a] = true
					}
				}
			}
			return true
		})
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	for _, a := range All() {
		if !shown[a] {
			t.Errorf("no post carries the action %q: nothing makes its button", a)
		}
	}
}

// constants reads the actions' constants from this package's source: an
// identifier's action.
func constants(t *testing.T, fset *token.FileSet) map[string]Action {
	f, err := parser.ParseFile(fset, "button.go", nil, 0)
	if err != nil {
		t.Fatal(err)
	}
	consts := map[string]Action{}
	for _, d := range f.Decls {
		g, ok := d.(*ast.GenDecl)
		if !ok || g.Tok != token.CONST {
			continue
		}
		for _, spec := range g.Specs {
			v := spec.(*ast.ValueSpec)
			for i, name := range v.Names {
				if i < len(v.Values) {
					if lit, ok := v.Values[i].(*ast.BasicLit); ok && lit.Kind == token.STRING {
						consts[name.Name] = Action(strings.Trim(lit.Value, `"`))
					}
				}
			}
		}
	}
	if len(consts) < len(All()) {
		t.Fatalf("read %d actions from button.go, want at least %d", len(consts), len(All()))
	}
	return consts
}
