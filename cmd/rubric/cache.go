package main

import (
	"github.com/rubricmcp/rubric/engine/cache"
	"github.com/spf13/cobra"
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
		Args:  noArgs,
		RunE: func(*cobra.Command, []string) error {
			store, err := cache.Look(a.v.GetString("cache-dir"))
			if err != nil {
				return err
			}
			st, err := store.Stats()
			if err != nil {
				return err
			}
			return st.Write(a.stdout, a.v.GetBool("json"))
		},
	}
	stats.Flags().Bool("json", false, "print JSON")
	clear := &cobra.Command{
		Use:   "clear",
		Short: "Remove every cached answer and prompt, and nothing else",
		Args:  noArgs,
		RunE: func(*cobra.Command, []string) error {
			store, err := cache.Look(a.v.GetString("cache-dir"))
			if err != nil {
				return err
			}
			st, err := store.Clear()
			if err != nil {
				return err
			}
			return st.WriteRemoved(a.stdout)
		},
	}
	cmd.AddCommand(stats, clear)
	return cmd
}
