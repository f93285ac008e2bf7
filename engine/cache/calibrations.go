package cache

import (
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"

	"github.com/rubricmcp/rubric/internal/atomicfile"
)

// Calibration is a calibration stopped before it was written, as the
// cache names it: the mark it keeps beside its --out (whose nonce its
// runs' answers are cached under) until it is written. The same
// calibrate command run again takes it up; removing the mark makes the
// next calibration into Out ask afresh. The mark lives beside Out, not in
// the cache, so that it is found by the command alone; the cache keeps
// this note of it (under calibrations/) so that rubric cache stats can
// name a mark no calibration ever took up again.
type Calibration struct {
	// Mark is the mark's path and Out the calibration's --out, both
	// absolute.
	Mark  string `json:"mark"`
	Out   string `json:"out"`
	Nonce string `json:"nonce"`
}

// calibrationPath is where the note of the calibration of nonce is kept.
func (s *Store) calibrationPath(nonce string) string {
	return filepath.Join(s.dir, "calibrations", nonce+".json")
}

// KeepCalibration notes a stopped calibration's mark; a cache in memory
// keeps nothing (it ends with the command).
func (s *Store) KeepCalibration(c Calibration) error {
	if s.mem != nil {
		return nil
	}
	if !isNonce(c.Nonce) {
		return fmt.Errorf("cache: calibration nonce %q is not hex", c.Nonce)
	}
	b, err := json.Marshal(c)
	if err != nil {
		return err
	}
	return atomicfile.WriteFile(s.calibrationPath(c.Nonce), b)
}

// DropCalibration forgets the calibration of nonce, once written.
func (s *Store) DropCalibration(nonce string) error {
	if s.mem != nil || !isNonce(nonce) {
		return nil
	}
	if err := os.Remove(s.calibrationPath(nonce)); err != nil && !errors.Is(err, fs.ErrNotExist) {
		return fmt.Errorf("cache: %w", err)
	}
	return nil
}

// calibrations are the noted calibrations whose marks are still in
// place, holding their nonce, and the paths of the notes whose marks are
// gone (removed by hand, or another calibration's since).
func (s *Store) calibrations() (live []Calibration, stale []string, err error) {
	dir := filepath.Join(s.dir, "calibrations")
	entries, err := os.ReadDir(dir)
	if err != nil && !errors.Is(err, fs.ErrNotExist) {
		return nil, nil, fmt.Errorf("cache: %w", err)
	}
	for _, e := range entries {
		name, ok := strings.CutSuffix(e.Name(), ".json")
		if e.IsDir() || !ok || !isNonce(name) {
			continue
		}
		p := filepath.Join(dir, e.Name())
		var c Calibration
		if data, err := os.ReadFile(p); err != nil || json.Unmarshal(data, &c) != nil || c.Nonce != name || !markHolds(c.Mark, name) {
			stale = append(stale, p)
			continue
		}
		live = append(live, c)
	}
	return live, stale, nil
}

// markHolds says whether the mark at path is there and holds nonce.
func markHolds(path, nonce string) bool {
	data, err := os.ReadFile(path)
	if err != nil {
		return false
	}
	var m struct {
		Nonce string `json:"nonce"`
	}
	return json.Unmarshal(data, &m) == nil && m.Nonce == nonce
}

// isNonce says whether s is a nonce a note may be named by: hex.
func isNonce(s string) bool {
	if s == "" || len(s) > 64 {
		return false
	}
	for _, c := range s {
		if (c < '0' || c > '9') && (c < 'a' || c > 'f') {
			return false
		}
	}
	return true
}
