package main

import (
	"bytes"
	"strings"
	"testing"

	"github.com/spf13/cobra"
	"github.com/spf13/viper"
)

// TestGroupsRefuseUnknown: every command group (a command with
// subcommands and no work of its own: not scan, which scores targets), at any depth, refuses a
// subcommand it does not have with exit 2, and still prints its help
// when given nothing.
func TestGroupsRefuseUnknown(t *testing.T) {
	a := &app{v: viper.New()}
	var groups [][]string
	var walk func(c *cobra.Command, path []string)
	walk = func(c *cobra.Command, path []string) {
		for _, sub := range c.Commands() {
			p := append(append([]string{}, path...), sub.Name())
			if sub.HasSubCommands() && sub.Annotations[groupAnnotation] != "" {
				groups = append(groups, p)
			}
			walk(sub, p)
		}
	}
	walk(a.rootCmd(), nil)
	if len(groups) < 4 {
		t.Fatalf("found only the groups %v", groups)
	}
	for _, g := range groups {
		name := strings.Join(g, " ")
		t.Run(name, func(t *testing.T) {
			var out, errb bytes.Buffer
			if code := execute(append(append([]string{}, g...), "bogus"), &out, &errb); code != exitInvalid {
				t.Errorf("rubric %s bogus: exit %d, want %d; stdout %q", name, code, exitInvalid, out.String())
			}
			if want := `unknown command "bogus" for "rubric ` + name + `"`; !strings.Contains(errb.String(), want) {
				t.Errorf("rubric %s bogus said %q, want %q", name, errb.String(), want)
			}
			out.Reset()
			if code := execute(g, &out, &errb); code != exitOK || !strings.Contains(out.String(), "Usage:") {
				t.Errorf("rubric %s: exit %d, stdout %q: want its help", name, code, out.String())
			}
		})
	}
}
