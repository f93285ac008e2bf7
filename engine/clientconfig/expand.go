package clientconfig

import (
	"fmt"
	"path/filepath"
	"strings"
)

// expander expands the variables of one format.
type expander struct {
	format Format
	opt    Options
	// seen, when set, records each environment variable expanded, by
	// name: its value may be a credential put on a command line.
	seen map[string]string
	// project says the server is a project's: its file's name is a
	// project file's (.mcp.json, .cursor/mcp.json, .vscode/mcp.json),
	// or it is a project's of ~/.claude.json.
	project bool
}

// system are variables of the user's session, whose values say where
// things are, not who may use them.
var system = map[string]bool{
	"HOME": true, "USER": true, "USERNAME": true, "LOGNAME": true, "PWD": true, "PATH": true,
	"SHELL": true, "TMPDIR": true, "TMP": true, "TEMP": true, "LANG": true, "USERPROFILE": true,
	"APPDATA": true, "LOCALAPPDATA": true, "XDG_CONFIG_HOME": true, "XDG_DATA_HOME": true,
	"XDG_CACHE_HOME": true, "XDG_RUNTIME_DIR": true,
}

// lookup reads an environment variable and records its value.
func (x expander) lookup(name string) (string, bool) {
	v, ok := x.opt.LookupEnv(name)
	if ok && x.seen != nil && !system[name] {
		x.seen[name] = v
	}
	return v, ok
}

// UnsetError is a variable a server's configuration uses that is not set
// and has no default.
type UnsetError struct {
	// Name is the variable as written inside ${...}.
	Name string
	// Format is the configuration's format, whose syntax the advice
	// follows: only Claude Code's ${NAME:-default} has a default.
	Format Format
}

// Error names the variable that is not set and says to set it, or, in
// Claude Code's format, to give it a default.
func (e *UnsetError) Error() string {
	if e.Format == ClaudeCode {
		return fmt.Sprintf("the environment variable %s is not set: set it where rubric runs, or write a default as ${%s:-value}", e.Name, e.Name)
	}
	return fmt.Sprintf("the environment variable %s is not set: set it where rubric runs (a %s configuration has no default for ${env:%s})", e.Name, e.Format, e.Name)
}

// expand replaces every ${...} of s as the format does; a $ not
// followed by { is kept as it is. Claude Desktop expands nothing: it
// hands a server ${NAME} as written, so a ${...} there is refused (see
// desktopVariable).
func (x expander) expand(s string) (string, error) {
	if !strings.Contains(s, "${") {
		return s, nil
	}
	if x.format == ClaudeDesktop {
		return "", desktopVariable(s)
	}
	var b strings.Builder
	for {
		i := strings.Index(s, "${")
		if i < 0 {
			b.WriteString(s)
			return b.String(), nil
		}
		end := strings.IndexByte(s[i+2:], '}')
		if end < 0 {
			return "", fmt.Errorf("%q opens ${ and never closes it", s)
		}
		b.WriteString(s[:i])
		v, err := x.variable(s[i+2 : i+2+end])
		if err != nil {
			return "", err
		}
		b.WriteString(v)
		s = s[i+2+end+1:]
	}
}

// variable is the value of one ${name}.
func (x expander) variable(name string) (string, error) {
	if x.format == ClaudeCode {
		// ${VAR} and ${VAR:-default}.
		v, def, hasDefault := strings.Cut(name, ":-")
		if editorVariable(v) {
			// Copied from a Cursor or VS Code file: no environment
			// variable is named so.
			instead := "write the path itself, or ${NAME} of a variable you set"
			if env, ok := strings.CutPrefix(v, "env:"); ok {
				instead = fmt.Sprintf("write ${%s} instead", env)
			}
			return "", fmt.Errorf("${%s} is a variable of Cursor's and VS Code's files; Claude Code expands only environment variables (${NAME}, ${NAME:-default}): %s", v, instead)
		}
		if val, ok := x.lookup(v); ok && (val != "" || !hasDefault) {
			return val, nil
		}
		if hasDefault {
			return def, nil
		}
		return "", &UnsetError{Name: v, Format: x.format}
	}
	// Cursor and VS Code.
	switch name {
	case "userHome":
		return x.opt.Home, nil
	case "workspaceFolder":
		return x.opt.Workspace, nil
	case "workspaceFolderBasename":
		return filepath.Base(x.opt.Workspace), nil
	case "pathSeparator", "/":
		return string(filepath.Separator), nil
	}
	if v, ok := strings.CutPrefix(name, "env:"); ok {
		if val, set := x.lookup(v); set {
			return val, nil
		}
		return "", &UnsetError{Name: v, Format: x.format}
	}
	if id, ok := strings.CutPrefix(name, "input:"); ok && x.format == VSCode {
		return "", fmt.Errorf("${input:%s} is asked of the user by VS Code, and rubric cannot ask: write ${env:NAME} instead and set NAME", id)
	}
	return "", fmt.Errorf("rubric cannot resolve ${%s} in a %s configuration (it resolves ${env:NAME}, ${userHome}, ${workspaceFolder}, ${workspaceFolderBasename}, ${pathSeparator} and ${/})", name, x.format)
}

// editorVariable says whether name is one of the variables Cursor and VS
// Code expand, which is no environment variable's name.
func editorVariable(name string) bool {
	switch name {
	case "workspaceFolder", "workspaceFolderBasename", "userHome", "pathSeparator", "/":
		return true
	}
	return strings.HasPrefix(name, "env:") || strings.HasPrefix(name, "input:")
}

// desktopVariable refuses the first ${...} of s, a string of a Claude
// Desktop configuration. Claude Desktop expands no variable: the server
// it starts receives the text ${NAME} itself, in place of the token or
// path meant, and fails, or runs on a value nobody chose. rubric reading
// it so would score a broken server; the message names the variable and
// the two ways out.
func desktopVariable(s string) error {
	i := strings.Index(s, "${")
	ref := s[i:]
	if end := strings.IndexByte(ref, '}'); end >= 0 {
		ref = ref[:end+1]
	}
	//lint:ignore ST1005 it begins with the client's name
	return fmt.Errorf("Claude Desktop does not expand %s: it starts the server with the text %s itself, not a value: write the value in the file, or read the file with --config-format claude-code, which expands ${NAME} (and ${NAME:-default}) from the environment rubric runs in", ref, ref)
}
