package lang

import "testing"

// builtAtInit is whether the language's base environment had been
// built once every init of the package had run: this file's init runs
// after the package's own (the go tool gives test files after the
// others, and init functions run in the order of their files).
var builtAtInit, decodedAtInit bool

func init() {
	builtAtInit = baseEnvBuilt.Load()
	UseCompiled([]byte("a table"))
	decodedAtInit = precompiled.decoded
	UseCompiled(nil)
}

// TestNothingCompiledAtInit: loading the package declares no library
// and registering a table decodes nothing, so a command that compiles
// no formula (rubric --version, rubric rubrics list) pays for neither;
// the first environment asked for builds the base.
func TestNothingCompiledAtInit(t *testing.T) {
	if builtAtInit {
		t.Error("the base environment was built at package init")
	}
	if decodedAtInit {
		t.Error("registering a table decoded it")
	}
	if _, err := NewEnv(Var{"tool", Object}); err != nil || !baseEnvBuilt.Load() {
		t.Errorf("NewEnv: %v, base built: %t", err, baseEnvBuilt.Load())
	}
}
