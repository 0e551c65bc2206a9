package faketest

import (
	"bytes"
	"cmp"
	"context"
	"encoding/json"
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/riskbot/riskbot/state"
	"github.com/riskbot/riskbot/storage"
)

// What the store keeps beside the matches: settings, results and the
// libraries of maps.

// Setting returns a setting's value, or storage.ErrNotFound.
func (s *Store) Setting(_ context.Context, scope, id string) (json.RawMessage, error) {
	if err := s.lock("Setting"); err != nil {
		return nil, err
	}
	defer s.mu.Unlock()
	v, ok := s.settings[[2]string{scope, id}]
	if !ok {
		return nil, fmt.Errorf("%w (setting %s/%s)", storage.ErrNotFound, scope, id)
	}
	return bytes.Clone(v), nil
}

// SetSetting stores a setting (storage.CheckSetting); nil deletes it.
func (s *Store) SetSetting(_ context.Context, scope, id string, value json.RawMessage, _ time.Time) error {
	if err := s.lock("SetSetting"); err != nil {
		return err
	}
	defer s.mu.Unlock()
	if err := storage.CheckSetting(scope, id, value); err != nil {
		return fmt.Errorf("faketest: set setting: %w", err)
	}
	if value == nil {
		delete(s.settings, [2]string{scope, id})
		return nil
	}
	s.settings[[2]string{scope, id}] = bytes.Clone(value)
	return nil
}

// RecordResult stores a finished match's result once (storage.CheckResult,
// storage.CheckRecorded).
func (s *Store) RecordResult(_ context.Context, r storage.Result) error {
	if err := s.lock("RecordResult"); err != nil {
		return err
	}
	defer s.mu.Unlock()
	if err := storage.CheckResult(r); err != nil {
		return err
	}
	var stored []storage.ResultRow
	for _, row := range s.results {
		if row.Match == r.Match {
			stored = append(stored, row)
		}
	}
	if len(stored) > 0 {
		return storage.CheckRecorded(r, stored)
	}
	for _, seat := range r.Seats {
		s.results = append(s.results, storage.ResultRow{Server: r.Server, Match: r.Match, Rules: r.Rules, Seat: seat, Ended: millis(r.Ended)})
	}
	return nil
}

// serverResults are a server's results among all in the order the
// matches ended.
func serverResults(all []storage.ResultRow, server string) []storage.ResultRow {
	var rows []storage.ResultRow
	for _, row := range all {
		if row.Server == server {
			rows = append(rows, row)
		}
	}
	slices.SortStableFunc(rows, func(a, b storage.ResultRow) int {
		return cmp.Or(a.Ended.Compare(b.Ended), cmp.Compare(a.Match, b.Match))
	})
	return rows
}

// Leaderboard returns a server's players under a rule set
// (storage.Leaderboard).
func (s *Store) Leaderboard(_ context.Context, server string, rules state.Rules, limit int) ([]storage.Standing, error) {
	if err := s.lock("Leaderboard"); err != nil {
		return nil, err
	}
	defer s.mu.Unlock()
	return storage.Leaderboard(serverResults(s.results, server), rules, limit), nil
}

// PlayerStats returns a player's standings on a server
// (storage.PlayerStats).
func (s *Store) PlayerStats(_ context.Context, server, player string) ([]storage.Standing, error) {
	if err := s.lock("PlayerStats"); err != nil {
		return nil, err
	}
	defer s.mu.Unlock()
	return storage.PlayerStats(serverResults(s.results, server), player), nil
}

// AddMap adds a map to its scope's library: a name taken (whatever its
// case) or the same files there already is a *storage.MapConflictError.
func (s *Store) AddMap(_ context.Context, m storage.LibraryMap, f storage.MapFiles, now time.Time) error {
	if err := s.lock("AddMap"); err != nil {
		return err
	}
	defer s.mu.Unlock()
	if err := storage.CheckLibraryMap(m, f); err != nil {
		return err
	}
	for _, have := range s.library {
		if have.Scope != m.Scope {
			continue
		}
		if have.Hash == m.Hash {
			return &storage.MapConflictError{Name: have.Name, Same: true}
		}
		if storage.FoldName(have.Name) == storage.FoldName(m.Name) {
			return &storage.MapConflictError{Name: have.Name}
		}
	}
	if _, ok := s.files[m.Engine()]; !ok {
		s.files[m.Engine()] = f
	}
	m.Size, m.Added = f.Size(), millis(now)
	s.library = append(s.library, m)
	return nil
}

// libraryIndex is the index in library of scope's map named name, or -1.
func libraryIndex(library []storage.LibraryMap, scope, name string) int {
	return slices.IndexFunc(library, func(m storage.LibraryMap) bool {
		return m.Scope == scope && storage.FoldName(m.Name) == storage.FoldName(name)
	})
}

// Maps lists a scope's library by name.
func (s *Store) Maps(_ context.Context, scope string) ([]storage.LibraryMap, error) {
	if err := s.lock("Maps"); err != nil {
		return nil, err
	}
	defer s.mu.Unlock()
	var out []storage.LibraryMap
	for _, m := range s.library {
		if m.Scope == scope {
			out = append(out, m)
		}
	}
	slices.SortFunc(out, func(a, b storage.LibraryMap) int {
		return strings.Compare(storage.FoldName(a.Name), storage.FoldName(b.Name))
	})
	return out, nil
}

// LibraryMap returns scope's map named name, whatever its case, or
// storage.ErrNoMap.
func (s *Store) LibraryMap(_ context.Context, scope, name string) (storage.LibraryMap, error) {
	if err := s.lock("LibraryMap"); err != nil {
		return storage.LibraryMap{}, err
	}
	defer s.mu.Unlock()
	i := libraryIndex(s.library, scope, name)
	if i < 0 {
		return storage.LibraryMap{}, fmt.Errorf("%w: %q in %s", storage.ErrNoMap, name, scope)
	}
	return s.library[i], nil
}

// MapFiles returns the files of the map of that engine name, or
// storage.ErrNoMap.
func (s *Store) MapFiles(_ context.Context, name string) (storage.MapFiles, error) {
	if err := s.lock("MapFiles"); err != nil {
		return storage.MapFiles{}, err
	}
	defer s.mu.Unlock()
	f, ok := s.files[name]
	if !ok {
		return f, fmt.Errorf("%w: %s", storage.ErrNoMap, name)
	}
	return f, nil
}

// RenameMap renames scope's map old: storage.ErrNoMap if there is none, a
// *storage.MapConflictError if another has the name new.
func (s *Store) RenameMap(_ context.Context, scope, old, new string) error {
	if err := s.lock("RenameMap"); err != nil {
		return err
	}
	defer s.mu.Unlock()
	if err := storage.CheckMapName(new); err != nil {
		return err
	}
	i := libraryIndex(s.library, scope, old)
	if i < 0 {
		return fmt.Errorf("%w: %q in %s", storage.ErrNoMap, old, scope)
	}
	if j := libraryIndex(s.library, scope, new); j >= 0 && j != i {
		return &storage.MapConflictError{Name: s.library[j].Name}
	}
	s.library[i].Name = new
	return nil
}

// RemoveMap removes scope's map named name (its files stay), or
// storage.ErrNoMap.
func (s *Store) RemoveMap(_ context.Context, scope, name string) error {
	if err := s.lock("RemoveMap"); err != nil {
		return err
	}
	defer s.mu.Unlock()
	i := libraryIndex(s.library, scope, name)
	if i < 0 {
		return fmt.Errorf("%w: %q in %s", storage.ErrNoMap, name, scope)
	}
	s.library = slices.Delete(s.library, i, i+1)
	return nil
}
