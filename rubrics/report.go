package rubrics

import (
	"errors"
	"fmt"
	"io/fs"
	"strings"

	"github.com/rubricmcp/rubric/engine/report"
	"github.com/rubricmcp/rubric/engine/rubric"
)

// OfReport loads the rubric a report was scored with: ref when given,
// else the file (a path, or builtin:FILE) or the name the report
// records. One whose digest differs from the report's is refused: its
// formulas would not explain the report's numbers.
func OfReport(rep *report.Report, ref string) (*rubric.Rubric, error) {
	given := ref != ""
	ref = recordedRef(rep, ref)
	r, err := Find(ref)
	if err != nil && !given && errors.Is(err, fs.ErrNotExist) {
		return nil, fmt.Errorf("%s: pass it with --rubric FILE", missing(ref))
	}
	if err != nil {
		return nil, fmt.Errorf("cannot load the rubric the report was scored with: %w (pass it with --rubric)", err)
	}
	if r.Digest != rep.Rubric.Digest {
		return nil, fmt.Errorf("the report was scored with %s digest %s, but %s has digest %s: pass the rubric it was scored with (--rubric), or rescore the report first", rep.Rubric.Name, rep.Rubric.Digest, ref, r.Digest)
	}
	return r, nil
}

// Recorded loads the rubric a report records it was scored with, for a
// command that reads the report's scores with it and has no flag to name
// it otherwise (rescore, whose --rubric is the new rubric): what it
// refuses says how to bring that rubric back.
func Recorded(rep *report.Report) (*rubric.Rubric, error) {
	ref := recordedRef(rep, "")
	builtin := strings.HasPrefix(ref, "builtin:") || ref == rep.Rubric.Name
	r, err := Find(ref)
	switch {
	case err != nil && !builtin && errors.Is(err, fs.ErrNotExist):
		return nil, fmt.Errorf("%s: put the file back at that path, or run from that directory", missing(ref))
	case err != nil:
		return nil, fmt.Errorf("cannot load the rubric the report was scored with, %s: %w", ref, err)
	case r.Digest == rep.Rubric.Digest:
		return r, nil
	case builtin:
		return nil, fmt.Errorf("the report was scored with %s %s digest %s, but this rubric's built-in %s has digest %s: score the server again with this version of rubric", rep.Rubric.Name, rep.Rubric.Version, rep.Rubric.Digest, rep.Rubric.Name, r.Digest)
	}
	return nil, fmt.Errorf("the report was scored with %s digest %s, but %s has changed since (digest %s): put back the version of %s it was scored with, or score the server again", rep.Rubric.Name, rep.Rubric.Digest, ref, r.Digest, ref)
}

// recordedRef is ref, or when it is empty the rubric file or name the
// report records.
func recordedRef(rep *report.Report, ref string) string {
	if ref == "" {
		ref = rep.Rubric.File
	}
	if ref == "" {
		ref = rep.Rubric.Name
	}
	return ref
}

// missing says that the rubric file a report records is not there.
func missing(ref string) string {
	return fmt.Sprintf("the report was scored with the rubric file %s, which is not there (the path is as given to rubric score, from the directory it ran in)", ref)
}
