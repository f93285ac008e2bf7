package transport

import "strings"

// CommandLine reports whether prog, a program to start without a shell,
// is a whole command line written where one program belongs ("npx -y
// some-server"): it has two words or more and found says no program of
// that name exists (a path with a space in it, found, is a program). It
// returns the argument array meant: prog's words, then args.
//
// An absolute path (/opt/My Server/bin/server, or C:\Program
// Files\nodejs\npx.cmd on Windows) is a command line only when its first
// word is a program found: otherwise it is a path with a space in it,
// for a program not there yet or on another machine, which splitting
// would only break.
func CommandLine(prog string, args []string, found func(string) bool) ([]string, bool) {
	words := strings.Fields(prog)
	if len(words) < 2 || found(prog) {
		return nil, false
	}
	if IsAbsPath(prog) && !found(words[0]) {
		return nil, false
	}
	return append(words, args...), true
}

// IsAbsPath reports whether p is an absolute path on some system: it
// starts with / or \, or a drive letter and a colon (C:\ or C:/).
func IsAbsPath(p string) bool {
	if strings.HasPrefix(p, "/") || strings.HasPrefix(p, `\`) {
		return true
	}
	return len(p) >= 3 && p[1] == ':' && (p[2] == '\\' || p[2] == '/') &&
		(p[0] >= 'a' && p[0] <= 'z' || p[0] >= 'A' && p[0] <= 'Z')
}
