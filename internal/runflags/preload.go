package runflags

import (
	"os"
	"strings"

	"github.com/rubricmcp/rubric/rubrics"
)

// PreloadRubric starts compiling, in the background, the built-in rubric
// that args (the command line without the program's name) will load when
// they are a `rubric score`: the --rubric flag's value, else
// RUBRIC_RUBRIC's, else def. It is told before cobra and viper have
// parsed anything, so the compile overlaps their work; a guess the
// configuration file overrules costs a compile on another core, and Find
// loads the rubric the run settles on.
func PreloadRubric(args []string, def string) {
	if ref, ok := rubricArg(args, def); ok {
		rubrics.Preload(ref)
	}
}

// rubricArg is the rubric args name, and whether they are a score.
func rubricArg(args []string, def string) (string, bool) {
	if len(args) == 0 || args[0] != "score" {
		return "", false
	}
	ref := def
	if v := os.Getenv("RUBRIC_RUBRIC"); v != "" { // as viper reads it
		ref = v
	}
	for i := 1; i < len(args); i++ {
		switch a := args[i]; {
		case a == "--":
			return ref, true
		case a == "--rubric" && i+1 < len(args):
			ref = args[i+1]
			i++
		case strings.HasPrefix(a, "--rubric="):
			ref = strings.TrimPrefix(a, "--rubric=")
		}
	}
	return ref, true
}
