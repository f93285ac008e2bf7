package transport

import "testing"

func TestSandboxCheck(t *testing.T) {
	for _, tc := range []struct {
		name string
		s    Sandbox
		err  string
	}{
		{name: "none", s: Sandbox{}},
		{name: "bwrap with everything", s: Sandbox{Kind: SandboxBwrap, Net: true, Cwd: CwdWritable, ReadOnly: []string{"/opt/x"}}},
		{name: "another kind", s: Sandbox{Kind: "docker"}, err: `--sandbox "docker": the only sandbox is "bwrap" (bubblewrap)`},
		{name: "another mode", s: Sandbox{Kind: SandboxBwrap, Cwd: "yes"}, err: `--sandbox-cwd "yes": give ro (read-only, the default), rw (writable) or none (hidden)`},
		{name: "options alone", s: Sandbox{Net: true, Cwd: CwdHidden, ReadOnly: []string{"/x"}}, err: "--sandbox-net and --sandbox-cwd and --sandbox-ro without a sandbox: add --sandbox bwrap"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			err := tc.s.Check()
			if tc.err == "" && err != nil || tc.err != "" && (err == nil || err.Error() != tc.err) {
				t.Errorf("Check: %v, want %q", err, tc.err)
			}
			if tc.s.Enabled() != (tc.s.Kind != "") {
				t.Errorf("Enabled %v for kind %q", tc.s.Enabled(), tc.s.Kind)
			}
		})
	}
}
