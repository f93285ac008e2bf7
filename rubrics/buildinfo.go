package rubrics

import "github.com/rubricmcp/rubric/internal/buildinfo"

// BuildInfo is what rubric version prints: the binary's version, commit
// and Go, and each built-in rubric's name, version and digest, read
// without compiling the rubrics (see Summaries).
func BuildInfo() (buildinfo.Info, error) {
	all, err := Summaries()
	if err != nil {
		return buildinfo.Info{}, err
	}
	var builtIn []buildinfo.Rubric
	for _, r := range all {
		builtIn = append(builtIn, buildinfo.Rubric{Name: r.Name, Version: r.Version, Digest: r.Digest})
	}
	return buildinfo.Current(builtIn), nil
}
