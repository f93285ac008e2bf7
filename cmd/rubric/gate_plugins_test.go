package main

import (
	"strings"
	"testing"

	"github.com/rubricmcp/rubric/plugins/host"
)

// TestPluginEnvDiff: a plugin's env is compared as the set of names the
// plugin is handed: another order, a name given twice, or none against
// an empty list changes nothing; another name does.
func TestPluginEnvDiff(t *testing.T) {
	pins := func(env ...string) map[string]map[string]string {
		return headPinFields(map[string]host.Pin{"mine": {Path: "bin/rubric-judge-mine", Env: env}})
	}
	for _, tc := range []struct {
		name       string
		base, head map[string]map[string]string
		want       string // the changes, as key base -> head; empty: none
	}{
		{"another order", pins("HOME", "LANG"), pins("LANG", "HOME"), ""},
		{"a name twice", pins("HOME", "LANG"), pins("LANG", "HOME", "LANG"), ""},
		{"none and an empty list", pins(), pins([]string{}...), ""},
		{"a name added", pins("HOME"), pins("HOME", "LANG"), "plugins.mine.env HOME -> HOME,LANG"},
		{"from none", pins(), pins("LANG", "HOME"), "plugins.mine.env  -> HOME,LANG"},
		// The base's entry as its rubric.yaml gives it, the head's as
		// rubric read it.
		{"the base's YAML in another order", pinFields(map[string]any{"Mine": map[string]any{"path": "bin/rubric-judge-mine", "env": []any{"LANG", "HOME"}}}), pins("HOME", "LANG"), ""},
	} {
		var got []string
		for _, c := range pluginDiff(tc.base, tc.head) {
			got = append(got, c.Key+" "+c.Base+" -> "+c.Head)
		}
		if s := strings.Join(got, "; "); s != tc.want {
			t.Errorf("%s: changes %q, want %q", tc.name, s, tc.want)
		}
	}
}
