package runflags

import (
	"fmt"
	"path/filepath"

	"github.com/rubricmcp/rubric/engine/calibrate"
	"github.com/rubricmcp/rubric/engine/rubric"
	"github.com/rubricmcp/rubric/engine/run"
	"github.com/rubricmcp/rubric/internal/localconfig"
	"github.com/rubricmcp/rubric/rubrics"
)

// Calibration reads what rubric calibrate CAPTURE --out DIR [--server
// TARGET | -- COMMAND] asks: the rubric (--rubric), the capture and,
// when given, the server its definitions are compared with.
func (fl Flags) Calibration(args []string) (*rubric.Rubric, run.Calibration, error) {
	v := fl.V
	var serverCmd []string
	if dash := fl.Cmd.ArgsLenAtDash(); dash >= 0 {
		args, serverCmd = args[:dash], args[dash:]
		if len(serverCmd) == 0 {
			return nil, run.Calibration{}, fmt.Errorf("nothing after --: give the command that starts the server whose definitions the capture is compared with")
		}
	}
	if len(args) != 1 {
		return nil, run.Calibration{}, fmt.Errorf("calibrate takes one registry capture, got %d (for example: rubric calibrate capture.json --out calib/)", len(args))
	}
	c := run.Calibration{CapturePath: args[0], Out: v.GetString("out"), Runs: v.GetInt("runs")}
	if err := c.Check(); err != nil {
		return nil, c, err
	}
	if v.GetString("record") != "" {
		return nil, c, fmt.Errorf("calibrate records every run's answers itself, into %s", filepath.Join(c.Out, "answers-run-K.jsonl"))
	}
	server := v.GetString("server")
	if server != "" && serverCmd != nil {
		return nil, c, fmt.Errorf("give either --server TARGET or -- COMMAND, not both")
	}
	r, err := rubrics.FindContext(fl.Cmd.Context(), v.GetString("rubric"))
	if err != nil {
		return nil, c, &localconfig.ValueError{Key: "rubric", Err: err}
	}
	if c.Capture, err = calibrate.ReadCapture(c.CapturePath); err != nil {
		return nil, c, err
	}
	if server != "" || serverCmd != nil {
		name, target, err := fl.Build(server, serverCmd)
		if err != nil {
			return nil, c, err
		}
		c.Server = &run.Source{Transport: name, Target: target}
	}
	return r, c, nil
}
