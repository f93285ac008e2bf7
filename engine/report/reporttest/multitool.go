package reporttest

import (
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"

	"github.com/rubricmcp/rubric/internal/buildtest"
)

// ghasConfig turns on every GitHub rule of the SARIF validator as an
// error, the physical-location rule GH1001 (off by default) included, as
// the validator's own GitHub policy (policies/github.config.xml in
// microsoft/sarif-sdk) does.
const ghasConfig = `<?xml version="1.0" encoding="utf-8"?>
<Properties>
  <Properties Key="GH1001.ProvideRequiredLocationProperties.Options"><Property Key="RuleEnabled" Value="Error" /></Properties>
  <Properties Key="GH1002.InlineThreadFlowLocations.Options"><Property Key="RuleEnabled" Value="Error" /></Properties>
  <Properties Key="GH1003.ProvideRequiredRegionProperties.Options"><Property Key="RuleEnabled" Value="Error" /></Properties>
  <Properties Key="GH1004.ReviewArraysThatExceedConfigurableDefaults.Options"><Property Key="RuleEnabled" Value="Error" /></Properties>
  <Properties Key="GH1005.LocationsMustBeRelativeUrisOrFilePaths.Options"><Property Key="RuleEnabled" Value="Error" /></Properties>
  <Properties Key="GH1006.ProvideCheckoutPath.Options"><Property Key="RuleEnabled" Value="Error" /></Properties>
  <Properties Key="GH1007.ProvideFullyFormattedMessageStrings.Options"><Property Key="RuleEnabled" Value="Error" /></Properties>
</Properties>
`

// ErrNoMultitool says that the SARIF validator is not installed.
var ErrNoMultitool = errors.New("the SARIF validator is not installed: run `make testdeps` (it installs testdeps/sarif-multitool)")

// Multitool is the path of the SARIF validator's binary that make
// testdeps installs.
func Multitool() (string, error) {
	root, err := buildtest.ModuleRoot()
	if err != nil {
		return "", err
	}
	platform := map[string]string{"linux": "linux", "darwin": "darwin", "windows": "win32"}[runtime.GOOS]
	bin := filepath.Join(root, "testdeps", "sarif-multitool", "node_modules", "@microsoft", "sarif-multitool-"+platform, "Sarif.Multitool")
	if runtime.GOOS == "windows" {
		bin += ".exe"
	}
	if _, err := os.Stat(bin); errors.Is(err, fs.ErrNotExist) {
		return "", ErrNoMultitool
	}
	return filepath.Abs(bin)
}

// GitHubErrors runs the SARIF validator's GitHub rules (validate
// --rule-kind Ghas, every GH rule an error) over the SARIF files and
// returns what it reports at level error, one "file: rule: message" a
// finding. scratch is a directory for its configuration and output.
func GitHubErrors(scratch string, files ...string) ([]string, error) {
	bin, err := Multitool()
	if err != nil {
		return nil, err
	}
	cfg := filepath.Join(scratch, "ghas.config.xml")
	out := filepath.Join(scratch, "validation.sarif")
	if err := os.WriteFile(cfg, []byte(ghasConfig), 0o644); err != nil {
		return nil, err
	}
	args := append([]string{"validate", "--rule-kind", "Ghas", "--config", cfg, "--output", out}, files...)
	cmd := exec.Command(bin, args...)
	// The validator is a .NET program: it needs no ICU for this. Without
	// tiered PGO its JIT does not first instrument the methods it will
	// compile again: the 16 corpus logs validated in 7.7 CPU-s against 11
	// (medians of four alternated runs, bench/README.md, issue 13).
	cmd.Env = append(os.Environ(), "DOTNET_SYSTEM_GLOBALIZATION_INVARIANT=1", "DOTNET_CLI_TELEMETRY_OPTOUT=1", "DOTNET_TieredPGO=0")
	combined, runErr := cmd.CombinedOutput()
	b, err := os.ReadFile(out)
	if err != nil {
		return nil, fmt.Errorf("the SARIF validator wrote no output (%v): %s", runErr, combined)
	}
	var log struct {
		Runs []struct {
			Results []struct {
				RuleID string `json:"ruleId"`
				validatorEntry
			} `json:"results"`
			Invocations []struct {
				Notifications []validatorEntry `json:"toolExecutionNotifications"`
			} `json:"invocations"`
		} `json:"runs"`
	}
	if err := json.Unmarshal(b, &log); err != nil {
		return nil, fmt.Errorf("the SARIF validator's output: %v", err)
	}
	var found []string
	for _, r := range log.Runs {
		// Version 5.7.0 fails to format the message of GH1001 when that
		// rule fires, and reports an ERR999 exception for the file in
		// place of the result: an exception about a file is a refusal
		// of it too.
		for _, inv := range r.Invocations {
			for _, n := range inv.Notifications {
				if n.refuses() {
					msg, _, _ := strings.Cut(n.Message.Text, "\n")
					found = append(found, n.where()+"exception: "+msg)
				}
			}
		}
		for _, res := range r.Results {
			if res.refuses() {
				found = append(found, res.where()+res.RuleID+": "+strings.TrimSpace(res.Message.Text))
			}
		}
	}
	return found, nil
}

// validatorEntry is what a result and a tool execution notification of
// the SARIF validator's own log have in common.
type validatorEntry struct {
	Level   string `json:"level"`
	Message struct {
		Text string `json:"text"`
	} `json:"message"`
	Locations []struct {
		PhysicalLocation struct {
			ArtifactLocation struct {
				URI string `json:"uri"`
			} `json:"artifactLocation"`
		} `json:"physicalLocation"`
	} `json:"locations"`
}

// refuses reports whether the entry is an error (SARIF's default level).
func (e validatorEntry) refuses() bool { return e.Level == "error" || e.Level == "" }

// where is the file the entry is about, followed by ": ", or "" when it
// names none.
func (e validatorEntry) where() string {
	if len(e.Locations) == 0 {
		return ""
	}
	return e.Locations[0].PhysicalLocation.ArtifactLocation.URI + ": "
}
