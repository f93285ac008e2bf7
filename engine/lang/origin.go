package lang

import (
	"errors"
	"strconv"

	"github.com/google/cel-go/common/types"
)

// Origin is where a formula's text is written in a rubric's file, so
// that an error the formula meets when it is evaluated names its place
// as a load error does. The loader records it (SetOrigin). It moves no
// score and is no part of a formula's canonical form or of the table of
// formulas compiled ahead of time: a digest does not see it, and a line
// added above a formula moves its origin, nothing else.
type Origin struct {
	File string
	// Line and Col (1-based) are where the text's first character is.
	Line, Col int
	// Indent is how many columns come before each later line of the
	// text: none in a quoted string, the indentation a heredoc's <<-
	// removed.
	Indent int
}

// Place is a position in a rubric's file.
type Place struct {
	File      string
	Line, Col int
}

// String writes the place as file:line:col, as load errors do.
func (p Place) String() string {
	return p.File + ":" + strconv.Itoa(p.Line) + ":" + strconv.Itoa(p.Col)
}

// At is the place in the file of a 1-based line and column of the text.
func (o Origin) At(line, col int) Place {
	if line <= 1 {
		return Place{File: o.File, Line: o.Line, Col: o.Col + col - 1}
	}
	return Place{File: o.File, Line: o.Line + line - 1, Col: o.Indent + col}
}

// SetOrigin records where p's text is written, for the form reading
// its lets apart too (each let has an origin of its own: set it on the
// let's Program). The loader calls it before the rubric is shared.
func (p *Program) SetOrigin(o Origin) {
	if p == nil {
		return
	}
	p.origin = &o
	if p.apart != nil && p.apart.prg != p {
		p.apart.prg.origin = &o
	}
}

// Origin returns where p's text is written; ok is false when the
// loader recorded none (a formula compiled outside a rubric).
func (p *Program) Origin() (o Origin, ok bool) {
	if p == nil || p.origin == nil {
		return Origin{}, false
	}
	return *p.origin, true
}

// Where returns the place in the rubric's file where p met err: the
// expression that failed, when err is one CEL labels with its
// expression (a division by zero names its /), else where p's text
// starts. ok is false when p has no origin.
func (p *Program) Where(err error) (Place, bool) {
	if p == nil || p.origin == nil {
		return Place{}, false
	}
	line, col := 1, 1
	var ce *types.Err
	// A formula that reads lets bound around it is checked as one text
	// with them, whose places are not its own: its start is named then.
	if errors.As(err, &ce) && ce.NodeID() != 0 && p.checked != nil {
		if src := p.checked.Source(); src != nil && src.Content() == p.Source {
			if loc := p.checked.NativeRep().SourceInfo().GetStartLocation(ce.NodeID()); loc.Line() > 0 {
				line, col = loc.Line(), loc.Column()+1
			}
		}
	}
	return p.origin.At(line, col), true
}
