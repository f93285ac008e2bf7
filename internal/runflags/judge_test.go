package runflags

import (
	"strings"
	"testing"

	"github.com/spf13/cobra"
	"github.com/spf13/viper"

	"github.com/rubricmcp/rubric/engine/run"
)

// TestJudging: the judge flags become run options, and what cannot run
// is refused with the flag to change.
func TestJudging(t *testing.T) {
	for _, tc := range []struct {
		name  string
		args  []string
		check func(t *testing.T, o run.Options)
		err   string
	}{
		{name: "the judge, its model and options, and the cache", args: []string{"--judge", "openai", "--model", "m1", "--judge-option", "seed=7", "--cache-dir", "CACHE", "--concurrency", "3"},
			check: func(t *testing.T, o run.Options) {
				if o.Judge != "openai" || o.JudgeConfig.Model != "m1" || o.Concurrency != 3 || o.Cache == nil {
					t.Errorf("options %+v", o)
				}
			}},
		{name: "no cache", args: []string{"--no-cache"}, check: func(t *testing.T, o run.Options) {
			if o.Cache != nil {
				t.Error("--no-cache opened the cache")
			}
		}},
		{name: "no question at a time", args: []string{"--no-cache", "--concurrency", "0"}, err: "--concurrency 0: ask at least one question at a time"},
		{name: "questions at once left to the judge", args: []string{"--no-cache"}, check: func(t *testing.T, o run.Options) {
			if o.Concurrency != 0 {
				t.Errorf("concurrency %d without --concurrency, want 0: the judge's kind decides", o.Concurrency)
			}
		}},
		{name: "a judge's own model against the pin", args: []string{"--no-cache", "--judge", "openai:model=a", "--model", "b"},
			err: "--judge openai:model=a names model a, but --model pins b: give one"},
		{name: "a panel member's own model against the pin", args: []string{"--no-cache", "--judge", "panel:heuristic,openai:model=a,temperature=0", "--model", "b"},
			err: "--judge openai:model=a,temperature=0 names model a, but --model pins b: give one"},
		{name: "a judge's own model that is the pin", args: []string{"--no-cache", "--judge", "openai:model=b", "--model", "b"},
			check: func(t *testing.T, o run.Options) {}},
		{name: "a judge option that is not KEY=VALUE", args: []string{"--no-cache", "--judge-option", "seed"}, err: "judge-option"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			dir := t.TempDir()
			cmd := &cobra.Command{Use: "score", RunE: func(*cobra.Command, []string) error { return nil }}
			AddJudge(cmd)
			args := tc.args
			for i, a := range args {
				if a == "CACHE" {
					args[i] = dir
				}
			}
			cmd.SetArgs(args)
			if err := cmd.Execute(); err != nil {
				t.Fatal(err)
			}
			v := viper.New()
			if err := v.BindPFlags(cmd.Flags()); err != nil {
				t.Fatal(err)
			}
			var o run.Options
			err := Judging(v, &o, &strings.Builder{})
			if tc.err != "" {
				if err == nil || !strings.Contains(err.Error(), tc.err) {
					t.Fatalf("error %v, want %q", err, tc.err)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			tc.check(t, o)
		})
	}
}
