package eval

import (
	"strings"

	"github.com/rubricmcp/rubric/engine/lang"
)

// placed is an error a formula met while evaluated, with the place in
// the rubric's file where it met it. It reads as the error itself:
// Error puts the place first, as a load error has it.
type placed struct {
	at  lang.Place
	err error
}

func (e *placed) Error() string { return e.err.Error() }

func (e *placed) Unwrap() error { return e.err }

// place gives err the place where p met it (see lang.Program.Where);
// err as it is when p has no origin.
func place(p *lang.Program, err error) error {
	if err == nil {
		return nil
	}
	if at, ok := p.Where(err); ok {
		return &placed{at: at, err: err}
	}
	return err
}

// innermost is the place err carries deepest: a let fails inside the
// formula that reads it, and the let's text is where the fix goes.
func innermost(err error) (lang.Place, bool) {
	var at lang.Place
	found := false
	for err != nil {
		if p, ok := err.(*placed); ok {
			at, found = p.at, true
		}
		switch x := err.(type) {
		case interface{ Unwrap() []error }:
			for _, e := range x.Unwrap() {
				if deeper, ok := innermost(e); ok {
					return deeper, true
				}
			}
			return at, found
		case interface{ Unwrap() error }:
			err = x.Unwrap()
		default:
			err = nil
		}
	}
	return at, found
}

// hints are what to do about the errors a formula commonly meets on
// some data and not other: the cause a message names, and the remedy.
var hints = []struct{ cause, hint string }{
	{"division by zero", "a divisor is 0 here; guard it, such as d == 0 ? 0 : n / d"},
	{"modulus by zero", "a divisor is 0 here; guard it, such as d == 0 ? 0 : n % d"},
	{"no such key", "the value lacks that member here: check the name's spelling (a map such as an element of tools is not type-checked), or, for a member that may be absent, test for it first, such as has(x.key) ? x.key : default, or read it as x.?key.orValue(default)"},
	{"index out of range", "the list is shorter here; test size(list) first"},
	{"no such overload", "a value here has a type the operation does not take (null, say, where a number or a string was meant); test its type first, such as type(x) == string"},
}

// hint is what to do about err, "" when nothing plain can be said.
func hint(err error) string {
	if err == nil {
		return ""
	}
	msg := err.Error()
	for _, h := range hints {
		if strings.Contains(msg, h.cause) {
			return h.hint
		}
	}
	return ""
}

// At gives err the place in the rubric's file of p, the formula whose
// value err is about (a value of the wrong shape, found after p was
// evaluated); err as it is when it has a place already or p has no
// origin.
func At(p *lang.Program, err error) error {
	if _, ok := innermost(err); ok {
		return err
	}
	return place(p, err)
}
