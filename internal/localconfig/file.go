package localconfig

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"maps"
	"os"
	"path/filepath"
	"slices"

	"github.com/spf13/viper"

	"github.com/rubricmcp/rubric/internal/boundedread"
	"github.com/rubricmcp/rubric/internal/nearest"
	"github.com/rubricmcp/rubric/internal/termtext"
)

// ConfigOnly are the config file's keys that no flag has.
var ConfigOnly = []string{"headers", "plugins", "prices"}

// Search finds the config file read when none is named: rubric.yaml (or
// rubric.yml) in the working directory, then in $XDG_CONFIG_HOME/rubric
// (or ~/.config/rubric). Only these names count: viper's own search
// would also take a file named plain "rubric", such as the binary
// itself. local says the file is the working directory's; user is then
// the path the user's own config file of that name would have, which
// Found compares it with. path is empty when there is none.
func Search() (path, user string, local bool) {
	dirs := []string{"."}
	if dir := os.Getenv("XDG_CONFIG_HOME"); dir != "" {
		dirs = append(dirs, filepath.Join(dir, "rubric"))
	} else if home, err := os.UserHomeDir(); err == nil {
		dirs = append(dirs, filepath.Join(home, ".config", "rubric"))
	}
	for i, dir := range dirs {
		for _, name := range []string{"rubric.yaml", "rubric.yml"} {
			path := filepath.Join(dir, name)
			if st, err := os.Stat(path); err != nil || st.IsDir() {
				continue
			}
			return path, filepath.Join(dirs[len(dirs)-1], name), i == 0
		}
	}
	return "", "", false
}

// Read reads the config file at path into v (whole, under boundedread's
// limit) and refuses a key that is neither in known (the flags' names)
// nor in ConfigOnly, naming the nearest valid one: a typo such as
// "rubrc: tdqs" would otherwise be ignored and the default run. Every
// other key v holds is a bound flag, so a key of v that known lacks came
// from the file.
func Read(v *viper.Viper, path string, known []string) error {
	v.SetConfigFile(path)
	b, err := boundedread.ReadFile(context.Background(), path, 0)
	if err == nil {
		err = v.ReadConfig(bytes.NewReader(b))
	}
	if err != nil {
		return fmt.Errorf("read config %s: %w", path, err)
	}
	known = append(slices.Clone(ConfigOnly), known...)
	for _, k := range slices.Sorted(maps.Keys(v.AllSettings())) {
		if slices.Contains(known, k) {
			continue
		}
		msg := fmt.Sprintf("config %s: unknown key %q", path, termtext.Printable(k))
		if near := nearest.Key(k, known); near != "" {
			msg += fmt.Sprintf(" (did you mean %q?)", near)
		}
		return errors.New(msg + "; the keys are the long flags' names, plus headers and plugins")
	}
	return nil
}
