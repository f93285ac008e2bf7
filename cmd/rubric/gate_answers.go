package main

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"

	"github.com/rubricmcp/rubric/engine/gate"
	"github.com/rubricmcp/rubric/engine/judge"
	"github.com/rubricmcp/rubric/engine/report"
	"github.com/rubricmcp/rubric/engine/run"
	"github.com/rubricmcp/rubric/plugins/host"
)

// sideAnswers is the replay judge's answers file a side's config file
// names (answers), when it is a file of the repository. A recorded answer
// is found by its question's kind and subject (the tool's name), so an
// answer both sides ask for is the same on both whichever file it comes
// from; but an answer only the base asks for (a tool the change removes
// or renames) moves the base alone, and a pull request that edits it
// could lower its base until its own head passes. So the base's answers
// are read as the base has them, as its rubric is, and the head's file
// answers only the questions the base's has no answer for (a tool the
// change adds), which the note says.
type sideAnswers struct {
	// name is the file as a message names it: REV:path for a revision.
	name string
	// copy is, for a revision, a copy of the file that outlives its
	// checkout, for the judge to read once it starts.
	copy string
	// sha256 is the file's content's, hex; "" when the side has no such
	// file.
	sha256 string
}

// readAnswers reads the answers file that value, a side's answers
// setting, names as the side t has it; nil when it is a file outside the
// repository, the same for every side.
func (g *gateJudges) readAnswers(t run.Tree, value string) (*sideAnswers, error) {
	path, in := t.Path(value)
	if !in {
		return nil, nil
	}
	sa := &sideAnswers{name: t.Name(path)}
	f, err := os.Open(path)
	if errors.Is(err, fs.ErrNotExist) {
		return sa, nil
	}
	if err != nil {
		return nil, err
	}
	defer f.Close()
	h := sha256.New()
	var w io.Writer = h
	if t.Side.Rev != "" && t.Side.Name == "base" {
		// The checkout is removed once the side is exported: the judge,
		// started later, reads this copy.
		if g.tmp == "" {
			if g.tmp, err = os.MkdirTemp("", "rubric-gate-answers-"); err != nil {
				return nil, err
			}
		}
		sa.copy = filepath.Join(g.tmp, filepath.Base(path))
		c, err := os.Create(sa.copy)
		if err != nil {
			return nil, err
		}
		defer c.Close()
		w = io.MultiWriter(h, c)
	}
	if _, err := io.Copy(w, f); err != nil {
		return nil, err
	}
	sa.sha256 = hex.EncodeToString(h.Sum(nil))
	return sa, nil
}

// answersChange compares the answers file the base's settings name with
// the one the judge would otherwise read, the working tree's at the same
// path; nil when the base's names none of the repository, or the two
// hold the same answers. When they differ, the head's answers to the
// questions the base's file has none for are added to the base's copy,
// which the judge then reads.
func answersChange(b *judgeSide) (*gate.AnswersChange, error) {
	if b.answers == nil {
		return nil, nil
	}
	value := b.vals.vals["answers"]
	head, err := fileSHA256(value)
	if err != nil {
		return nil, err
	}
	if head == b.answers.sha256 {
		return nil, nil
	}
	c := &gate.AnswersChange{File: value, BaseFile: b.answers.name, Base: b.answers.sha256, Head: head}
	if c.Base != "" && c.Head != "" {
		if c.HeadOnly, err = addHeadAnswers(b.answers.copy, value); err != nil {
			return nil, err
		}
	}
	return c, nil
}

// addHeadAnswers appends to the answers file base the answers of the
// file head to questions (kind and subject) base has none for, and
// returns how many. A line of head that cannot be read is left out: the
// base's answers are the ones that count.
func addHeadAnswers(base, head string) (int, error) {
	has := map[[2]string]bool{}
	for _, rec := range recordedLines(base) {
		has[[2]string{rec.Kind, rec.Subject}] = true
	}
	var add []judge.Recorded
	for _, rec := range recordedLines(head) {
		k := [2]string{rec.Kind, rec.Subject}
		if rec.Kind != "" && rec.Subject != "" && !has[k] {
			has[k] = true
			add = append(add, rec)
		}
	}
	if len(add) == 0 {
		return 0, nil
	}
	f, err := os.OpenFile(base, os.O_APPEND|os.O_WRONLY, 0)
	if err != nil {
		return 0, err
	}
	// The base's last line may lack its newline.
	_, werr := f.WriteString("\n# The head's answers to questions the base has none for (rubric gate):\n")
	if werr == nil {
		werr = judge.WriteRecorded(f, add)
	}
	if err := f.Close(); werr == nil {
		werr = err
	}
	return len(add), werr
}

// recordedLines are the answers of the answers file at path that can be
// read; none when it cannot be.
func recordedLines(path string) []judge.Recorded {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil
	}
	var out []judge.Recorded
	for line := range bytes.Lines(data) {
		line = bytes.TrimSpace(line)
		if len(line) == 0 || line[0] == '#' {
			continue
		}
		var rec judge.Recorded
		if json.Unmarshal(line, &rec) == nil {
			out = append(out, rec)
		}
	}
	return out
}

// answersNote says what the gate did about a changed answers file.
func answersNote(c *gate.AnswersChange) string {
	if c.Base == "" {
		return fmt.Sprintf("the base's settings name the replay judge's answers file %s, which the base does not have (%s), so both sides are judged with the head's recorded answers, which this change brings: review them", c.File, c.BaseFile)
	}
	note := fmt.Sprintf("the head changes the replay judge's answers file %s: both sides are judged with the base's recorded answers (%s)", c.File, c.BaseFile)
	if c.HeadOnly > 0 {
		return note + fmt.Sprintf(", and with the head's for %s the base has no answer to (what the change adds): review them", report.Plural(c.HeadOnly, "question"))
	}
	return note + "; the change takes effect once merged"
}

// fileSHA256 is the hex sha256 of the file at path; "" when there is none.
func fileSHA256(path string) (string, error) {
	sum, err := host.FileSHA256(path)
	if errors.Is(err, fs.ErrNotExist) {
		return "", nil
	}
	return sum, err
}

// close removes the copies of the base's answers file.
func (g *gateJudges) close() {
	if g.tmp != "" {
		_ = os.RemoveAll(g.tmp)
	}
}
