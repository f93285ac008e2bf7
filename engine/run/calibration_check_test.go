package run

import "testing"

func TestCalibrationCheck(t *testing.T) {
	for _, tc := range []struct {
		name string
		c    Calibration
		want string
	}{
		{name: "ready", c: Calibration{Out: "calib", Runs: 1}},
		{name: "no directory", c: Calibration{Runs: 3}, want: "calibrate needs --out DIR: the record, the summary and each run's answers are written there"},
		{name: "no run", c: Calibration{Out: "calib"}, want: "--runs 0: score the capture at least once"},
		{name: "a negative count", c: Calibration{Out: "calib", Runs: -2}, want: "--runs -2: score the capture at least once"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got := ""
			if err := tc.c.Check(); err != nil {
				got = err.Error()
			}
			if got != tc.want {
				t.Errorf("Check() = %q, want %q", got, tc.want)
			}
		})
	}
}
