package localconfig

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"regexp"
	"strings"

	"github.com/spf13/pflag"
	"github.com/spf13/viper"
	"go.yaml.in/yaml/v3"

	"github.com/rubricmcp/rubric/internal/boundedread"
)

// Origin says where the value of the key of a flag in flags came from
// when it was not the command line: "config rubric.yaml:3" (the config
// file v read, with the key's line), "environment RUBRIC_FORMAT", or ""
// for the command line or the default. A message about the value then
// names where to mend it rather than a flag that was never given.
func Origin(v *viper.Viper, flags *pflag.FlagSet, key string) string {
	if f := flags.Lookup(key); f == nil || f.Changed {
		return ""
	}
	if EnvGives(key) {
		return "environment " + EnvName(key)
	}
	path := v.ConfigFileUsed()
	if path == "" || !v.InConfig(key) {
		return ""
	}
	if line := keyLine(path, key); line > 0 {
		return fmt.Sprintf("config %s:%d", path, line)
	}
	return "config " + path
}

// keyLine is the line of the top-level key in the YAML file at path, 0
// when it cannot be told.
func keyLine(path, key string) int {
	k, _, err := TopKey(path, key)
	if err != nil || k == nil {
		return 0
	}
	return k.Line
}

// TopKey finds the top-level key of the YAML config file at path (any
// case) and returns its node and its value's; both nil when the file is
// empty, is not a map, or has no such key. An error is one of reading
// the file, or a *NotYAMLError.
func TopKey(path, key string) (k, v *yaml.Node, err error) {
	look, err := TopKeys(path)
	if err != nil {
		return nil, nil, err
	}
	k, v = look(key)
	return k, v, nil
}

// TopKeys reads the YAML config file at path once and returns a lookup
// of its top-level keys, as TopKey finds one: for reading several keys
// of one file. Its errors are TopKey's.
func TopKeys(path string) (look func(key string) (k, v *yaml.Node), err error) {
	none := func(string) (k, v *yaml.Node) { return nil, nil }
	b, err := boundedread.ReadFile(context.Background(), path, 0)
	if err != nil {
		return nil, err
	}
	var doc yaml.Node
	if err := yaml.NewDecoder(bytes.NewReader(b)).Decode(&doc); err != nil {
		if errors.Is(err, io.EOF) {
			return none, nil
		}
		return nil, &NotYAMLError{err}
	}
	if len(doc.Content) == 0 || doc.Content[0].Kind != yaml.MappingNode {
		return none, nil
	}
	top := doc.Content[0].Content
	return func(key string) (k, v *yaml.Node) {
		for i := 0; i+1 < len(top); i += 2 {
			if strings.EqualFold(top[i].Value, key) {
				return top[i], top[i+1]
			}
		}
		return nil, nil
	}, nil
}

// flagName is a flag as messages name it: --NAME, not inside a longer
// name.
var flagName = regexp.MustCompile(`--([a-z][a-z0-9-]*)\b`)

// Blame rewrites msg, a message about a value of a flag of flags, when
// the value came from the config file or the environment: prefixed
// with where it came from (see Origin; from the environment, as a
// sentence: "RUBRIC_JUDGE_TIMEOUT (from the environment) is 1ms: ..."),
// and, from the config file,
// with --KEY written as the key. key is the flag the message is about; "" looks for the first
// --NAME in msg that names a flag of flags. A message from the command
// line's values is returned as it is.
func Blame(v *viper.Viper, flags *pflag.FlagSet, key, msg string) string {
	if key == "" {
		for _, m := range flagName.FindAllStringSubmatch(msg, -1) {
			if flags.Lookup(m[1]) != nil {
				key = m[1]
				break
			}
		}
	}
	if key == "" {
		return msg
	}
	at := Origin(v, flags, key)
	if at == "" || strings.HasPrefix(msg, at) || strings.HasPrefix(msg, EnvName(key)+" (from the environment)") || strings.HasPrefix(msg, "config "+v.ConfigFileUsed()+":") {
		return msg // from the command line, or the variable or the file is named already
	}
	if !strings.HasPrefix(at, "config ") {
		// The variable sets the flag, which keeps its name in msg.
		return fromEnv(flags.Lookup(key)) + ": " + msg
	}
	if named := unflag(msg, key); named != msg {
		return at + ": " + named
	}
	return at + ": " + key + ": " + msg
}

// fromEnv names the variable that gave the flag f its value as a
// sentence's subject (see envSubject): "RUBRIC_JUDGE_TIMEOUT (from the
// environment) is 1ms", "RUBRIC_FORMAT (from the environment)".
func fromEnv(f *pflag.Flag) string {
	name := EnvName(f.Name)
	return envSubject(name, f.Value.Type(), os.Getenv(name))
}

// unflag is msg with each --key (and not --key-more) written as key.
func unflag(msg, key string) string {
	var b strings.Builder
	flag := "--" + key
	for {
		i := strings.Index(msg, flag)
		if i < 0 {
			break
		}
		end := i + len(flag)
		if end < len(msg) && (msg[end] == '-' || msg[end] >= 'a' && msg[end] <= 'z' || msg[end] >= '0' && msg[end] <= '9') {
			b.WriteString(msg[:end])
		} else {
			b.WriteString(msg[:i] + key)
		}
		msg = msg[end:]
	}
	return b.String() + msg
}

// ValueError is an error about the value of the flag Key whose message
// does not name the flag ("no rubric \"nope\""), for Blame to name
// where the value came from when that was not the command line.
type ValueError struct {
	Key string
	Err error
}

// Error is the value's failure as it was worded.
func (e *ValueError) Error() string { return e.Err.Error() }

// Unwrap returns the error about the value.
func (e *ValueError) Unwrap() error { return e.Err }

// NotYAMLError is a config file that could be read but is not YAML.
type NotYAMLError struct{ Err error }

// Error is the parser's failure as it was worded.
func (e *NotYAMLError) Error() string { return e.Err.Error() }

// Unwrap returns the parser's failure.
func (e *NotYAMLError) Unwrap() error { return e.Err }
