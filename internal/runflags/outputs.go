package runflags

import (
	"fmt"
	"io"
	"os"
	"strings"

	"github.com/spf13/cobra"
	"github.com/spf13/pflag"
	"github.com/spf13/viper"

	"github.com/rubricmcp/rubric/engine/report/text"
	"github.com/rubricmcp/rubric/engine/report/writers"
	"github.com/rubricmcp/rubric/engine/run"
)

// reportFlags are the flags of score's reports: --out and each writer's.
var reportFlags = func() []string {
	names := []string{"out"}
	for _, w := range writers.All {
		if w.Flag != "" {
			names = append(names, w.Flag)
		}
	}
	return names
}()

// ReportOutputs are the files of --out and each writer's flag in v.
func ReportOutputs(v *viper.Viper) []run.Flagged {
	out := make([]run.Flagged, len(reportFlags))
	for i, name := range reportFlags {
		out[i] = run.Flagged{Flag: "--" + name, Path: v.GetString(name)}
	}
	return out
}

// Outputs are --out and the writers' files in v, and the terminal
// summary's options (--max-issues, --max-rows): in colour and cut to the
// width of a terminal that is the main output, stdout.
func Outputs(v *viper.Viper, format writers.Writer, stdout io.Writer) (writers.Outputs, text.Options) {
	opt := text.Options{MaxIssues: v.GetInt("max-issues"), MaxTools: v.GetInt("max-rows"), SARIFCategory: v.GetString("sarif-category")}
	o := writers.Outputs{Main: format, Out: v.GetString("out"), Files: map[string]string{}}
	if s, ok := stdout.(*Stdout); ok {
		stdout = s.File
	}
	if f, ok := stdout.(*os.File); ok && o.Out == "" && format.Name == "text" {
		opt.Color, opt.Width = text.ColorEnabled(f), text.TerminalWidth(f)
	}
	for _, w := range writers.All {
		o.Files[w.Flag] = v.GetString(w.Flag)
	}
	return o, opt
}

// CheckSARIFCategory refuses a --sarif-category that names no category,
// from wherever it came: "/" (or spaces) became the id "/", a run of no
// category. It refuses one given on the command line to a run that
// writes no SARIF (format, the main output's, is not sarif and --sarif
// is not given), which ignored it without a word; from the environment
// or a config file it is a standing setting, used when SARIF is
// written.
func CheckSARIFCategory(v *viper.Viper, flags *pflag.FlagSet, format string) error {
	category := v.GetString("sarif-category")
	if category == "" {
		return nil
	}
	if strings.TrimSpace(strings.Trim(strings.TrimSpace(category), "/")) == "" {
		return fmt.Errorf("--sarif-category %q names no category: give a name such as mcp-tools or rubric/tdqs, by which GitHub code scanning tells runs apart", category)
	}
	if f := flags.Lookup("sarif-category"); f != nil && f.Changed && format != "sarif" && v.GetString("sarif") == "" {
		return fmt.Errorf("--sarif-category %s applies to SARIF, and this run writes none: add --sarif FILE (or --format sarif), or leave --sarif-category out", category)
	}
	return nil
}

// fileFlags are the flags that name a file or a folder rubric writes
// (or, for --lock-file, reads and writes): "-" names none of them. The
// reports' flags hold --html, which the gate and calibrate have too.
var fileFlags = append([]string{"out", "failed", "lock-file", "report-dir"}, reportFlags[1:]...)

// folderAnnotation marks a flag that names a folder rather than a file
// (Folder), for CheckDash's message.
const folderAnnotation = "rubric/folder"

// Folder marks the flag name of f as one that names a folder rather
// than a file: what CheckDash says when it is given "-".
func Folder(f *pflag.FlagSet, name string) {
	if err := f.SetAnnotation(name, folderAnnotation, []string{"true"}); err != nil {
		panic(err) // a flag of this program's own that is not there
	}
}

// CheckDash reads "-" given to a flag of cmd that names a file to write:
// score's --out - is standard output, where the output goes when --out
// is left out (the target "-" reads standard input); to any other such
// flag it is refused, where it wrote a file named "-".
func CheckDash(v *viper.Viper, cmd *cobra.Command) error {
	for _, name := range fileFlags {
		f := cmd.Flags().Lookup(name)
		if f == nil || v.GetString(name) != "-" {
			continue
		}
		if name == "out" && cmd.Name() == "score" {
			v.Set("out", "")
			continue
		}
		what := "file"
		if _, ok := f.Annotations[folderAnnotation]; ok {
			what = "folder"
		}
		return fmt.Errorf("--%s -: the --%s of %s names a %s, not standard output: name one (./- for a %s called -)", name, name, cmd.CommandPath(), what, what)
	}
	return nil
}
