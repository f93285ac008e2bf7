package transport

import (
	"fmt"
	"net/http"
	"os"
	"strings"
)

// Pairs parses NAME=VALUE items given with flag (such as "--env"). With
// colon, NAME: VALUE (as curl takes a header) is read too: a header name
// holds neither ':' nor '=', so whichever comes first ends it. A
// malformed item is named by its place alone: its text may be a secret.
func Pairs(flag string, items []string, colon bool) (map[string]string, error) {
	if len(items) == 0 {
		return nil, nil
	}
	m := map[string]string{}
	for i, it := range items {
		sep := "="
		if c := strings.IndexByte(it, ':'); colon && c >= 0 && (c < strings.IndexByte(it, '=') || !strings.Contains(it, "=")) {
			sep = ":"
		}
		k, val, ok := strings.Cut(it, sep)
		if !ok || strings.TrimSpace(k) == "" {
			want := "NAME=VALUE"
			if colon {
				want = "NAME=VALUE or NAME: VALUE"
			}
			return nil, fmt.Errorf("%s number %d of %d is not %s (its text is not shown: it may hold a secret): give it as %s", flag, i+1, len(items), want, want)
		}
		if sep == ":" {
			val = strings.TrimLeft(val, " \t")
		}
		m[strings.TrimSpace(k)] = val
	}
	return m, nil
}

// MergeHeaders merges a config file's headers (whose values may name
// environment variables as ${NAME}, so secrets stay out of the file) with
// header lines given as flag, NAME=VALUE or NAME: VALUE, later ones
// winning. Names are canonicalised (a config reader may lowercase them),
// so one header given twice is one header. No header at all is nil.
func MergeHeaders(config map[string]string, flag string, lines []string) (map[string]string, error) {
	h := map[string]string{}
	for k, val := range config {
		h[http.CanonicalHeaderKey(k)] = os.ExpandEnv(val)
	}
	more, err := Pairs(flag, lines, true)
	if err != nil {
		return nil, err
	}
	for k, val := range more {
		h[http.CanonicalHeaderKey(k)] = val
	}
	if len(h) == 0 {
		return nil, nil
	}
	return h, nil
}
