package transport

import "strings"

// CommandLine reports whether prog, a program to start without a shell,
// is a whole command line written where one program belongs ("npx -y
// some-server"): it has two words or more and found says no program of
// that name exists (a path with a space in it, found, is a program). It
// returns the argument array meant: prog's words, then args.
func CommandLine(prog string, args []string, found func(string) bool) ([]string, bool) {
	words := strings.Fields(prog)
	if len(words) < 2 || found(prog) {
		return nil, false
	}
	return append(words, args...), true
}
