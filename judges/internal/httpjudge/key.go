package httpjudge

import (
	"fmt"
	"os"
	"strings"

	"github.com/rubricmcp/rubric/judges/internal/judgeopt"
)

// APIKey reads a judge's API key from the environment variable env, the
// only place a key comes from. An empty key is an error when the judge
// talks to its provider's hosted API (hosted) or when the user named the
// variable with the api_key_env option (named): then a missing value is
// a mistake, not a keyless local server. The error names the variable,
// never a value.
func APIKey(judgeName, env, host string, hosted, named bool) (string, error) {
	key := strings.TrimSpace(os.Getenv(env))
	switch {
	case key != "":
		return key, nil
	case named:
		return "", fmt.Errorf("the %s judge's option api_key_env names %s, which is not set: set %s to the API key for %s, or name another variable with %s", judgeName, env, env, host, judgeopt.Setting(judgeName, "api_key_env", "NAME"))
	case hosted:
		return "", fmt.Errorf("the %s judge needs an API key for %s: set %s, or name another variable with %s", judgeName, host, env, judgeopt.Setting(judgeName, "api_key_env", "NAME"))
	}
	return "", nil
}
