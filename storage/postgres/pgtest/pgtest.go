// Package pgtest gives tests a PostgreSQL database of their own: a fresh
// schema in the server named by the RISK_TEST_POSTGRES environment
// variable (a postgres:// URL), dropped when the test ends. Tests that
// need one skip without it, so that `go test ./...` passes anywhere;
// .ci/run starts a throwaway server and sets the variable.
package pgtest

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"errors"
	"net/url"
	"os"
	"strings"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgconn"
)

// Env names the environment variable holding the test server's URL.
const Env = "RISK_TEST_POSTGRES"

// Server returns the test server's URL, skipping the test if there is none.
func Server(t testing.TB) string {
	t.Helper()
	u := os.Getenv(Env)
	if u == "" {
		t.Skipf("no PostgreSQL for tests: set %s to a postgres:// URL (bash .ci/postgres start does)", Env)
	}
	return u
}

// URL returns the address of an empty database for the test: the test
// server with search_path set to a new schema, dropped at the end of the
// test (after the cleanups registered later, such as closing the stores
// opened on it).
func URL(t testing.TB) string {
	t.Helper()
	return in(t, Server(t))
}

// Collated is URL in a database of the test server whose text compares as
// people read it (ICU's root collation), not byte by byte: as on most
// servers (en_US.UTF-8, say), where "web;" sorts before "web:a". The
// database is created the first time and kept.
func Collated(t testing.TB) string {
	t.Helper()
	base := Server(t)
	u, err := url.Parse(base)
	if err != nil {
		t.Fatalf("%s: %v", Env, err)
	}
	const name = "risk_test_icu"
	ctx, conn, done := connect(t, base)
	defer done()
	_, err = conn.Exec(ctx, `CREATE DATABASE `+name+` TEMPLATE template0 ENCODING 'UTF8' LOCALE_PROVIDER icu ICU_LOCALE 'und' LOCALE 'C.utf8'`)
	if e, ok := errors.AsType[*pgconn.PgError](err); ok && e.Code == "42P04" {
		err = nil // made by an earlier run
	}
	if err != nil {
		t.Skipf("pgtest: no database with ICU's collation: %v", err)
	}
	u.Path = "/" + name
	return in(t, u.String())
}

// connect opens a connection to the database at addr, for a minute at
// most; done closes it.
func connect(t testing.TB, addr string) (ctx context.Context, conn *pgx.Conn, done func()) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	conn, err := pgx.Connect(ctx, addr)
	if err != nil {
		cancel()
		t.Fatalf("pgtest: connect: %v", err)
	}
	return ctx, conn, func() {
		conn.Close(ctx)
		cancel()
	}
}

// in returns the address of a new schema in the database at base,
// dropped when the test ends.
func in(t testing.TB, base string) string {
	t.Helper()
	b := make([]byte, 6)
	if _, err := rand.Read(b); err != nil {
		t.Fatal(err)
	}
	schema := "t_" + hex.EncodeToString(b)
	exec(t, base, `CREATE SCHEMA `+schema)
	t.Cleanup(func() { exec(t, base, `DROP SCHEMA `+schema+` CASCADE`) })
	u, err := url.Parse(base)
	if err != nil {
		t.Fatalf("%s: %v", Env, err)
	}
	q := u.Query()
	q.Set("search_path", schema)
	u.RawQuery = q.Encode()
	return u.String()
}

// Exec runs statements on the database at addr, in one transaction,
// behind the back of any store.
func Exec(t testing.TB, addr string, stmts ...string) {
	t.Helper()
	exec(t, addr, stmts...)
}

func exec(t testing.TB, addr string, stmts ...string) {
	t.Helper()
	ctx, conn, done := connect(t, addr)
	defer done()
	tx, err := conn.Begin(ctx)
	if err != nil {
		t.Fatalf("pgtest: %v", err)
	}
	defer tx.Rollback(ctx)
	for _, s := range stmts {
		if _, err := tx.Exec(ctx, s); err != nil {
			t.Fatalf("pgtest: %s: %v", s, err)
		}
	}
	if err := tx.Commit(ctx); err != nil {
		t.Fatalf("pgtest: %v", err)
	}
}

// NotDurable says why a commit on the server at addr may not survive a
// power cut ("" if it would): fsync or synchronous_commit off, as the
// throwaway server of `bash .ci/postgres start` has them, for speed.
// Benchmarks whose floor is a durable commit need both on (`bash
// .ci/postgres start durable`).
func NotDurable(t testing.TB, addr string) string {
	t.Helper()
	ctx, conn, done := connect(t, addr)
	defer done()
	var why []string
	for _, name := range []string{"fsync", "synchronous_commit"} {
		var v string
		if err := conn.QueryRow(ctx, "SELECT current_setting($1)", name).Scan(&v); err != nil {
			t.Fatalf("pgtest: %s: %v", name, err)
		}
		if v == "off" {
			why = append(why, name+" off")
		}
	}
	return strings.Join(why, ", ")
}
