package main

import (
	"encoding/json"
	"fmt"

	"github.com/spf13/cobra"

	"github.com/rubricmcp/rubric/engine/transport"
)

func (a *app) cacheCmd() *cobra.Command {
	cmd := &cobra.Command{
		Use:   "cache",
		Short: "Show or clear the cache of judges' answers",
		Long:  help("cache"),
	}
	cmd.PersistentFlags().String("cache-dir", "", "the answer cache (default: rubric under the user cache directory)")
	stats := &cobra.Command{
		Use:   "stats",
		Short: "Print where the cache is, how many answers and prompts it holds, and its size",
		Args:  cobra.NoArgs,
		RunE: func(*cobra.Command, []string) error {
			store, err := a.cacheStore()
			if err != nil {
				return err
			}
			st, err := store.Stats()
			if err != nil {
				return err
			}
			if a.v.GetBool("json") {
				enc := json.NewEncoder(a.stdout)
				enc.SetIndent("", "  ")
				return enc.Encode(st)
			}
			fmt.Fprintf(a.stdout, "cache:   %s\nanswers: %d\nprompts: %d\nsize:    %s\n", st.Dir, st.Answers, st.Prompts, transport.Sized(st.Bytes))
			return nil
		},
	}
	stats.Flags().Bool("json", false, "print JSON")
	clear := &cobra.Command{
		Use:   "clear",
		Short: "Remove every cached answer and prompt",
		Args:  cobra.NoArgs,
		RunE: func(*cobra.Command, []string) error {
			store, err := a.cacheStore()
			if err != nil {
				return err
			}
			st, err := store.Clear()
			if err != nil {
				return err
			}
			fmt.Fprintf(a.stdout, "removed %d answers and %d prompts (%s) from %s\n", st.Answers, st.Prompts, transport.Sized(st.Bytes), st.Dir)
			return nil
		},
	}
	cmd.AddCommand(stats, clear)
	return cmd
}
