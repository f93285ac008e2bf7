package gate

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"

	"github.com/rubricmcp/rubric/engine/contract"
	"github.com/rubricmcp/rubric/engine/lock"
	"github.com/rubricmcp/rubric/engine/report"
	"github.com/rubricmcp/rubric/internal/boundedread"
	"github.com/rubricmcp/rubric/internal/jsonpos"
)

// Version is the version of the gate report format.
const Version = 1

// Report is the record of one gate: what was compared, each pair's values
// and calls, the decision and why, and on a drop what fell.
type Report struct {
	GateVersion int              `json:"gate_version"`
	Generator   report.Generator `json:"generator"`
	Decision    Decision         `json:"decision"`
	ExitCode    int              `json:"exit_code"`
	Reason      string           `json:"reason"`
	Rubric      report.Rubric    `json:"rubric"`
	Rule        Rule             `json:"rule"`
	// RubricChange, when the rubric is a file of the repository (or a
	// config file of the repository chooses it) and the head's differs
	// from the base's, says whose scored both sides: the base's, so that
	// a change cannot weaken its own gate, or the head's when the base
	// has none. Absent when both sides have the same rubric.
	RubricChange *RubricChange `json:"rubric_change,omitempty"`
	// JudgeChange, when the settings that decide the judge's answers come
	// from a config file of the repository and the head's differ from the
	// base's, says whose answered both sides: the base's, so that a
	// change cannot choose a judge that lets it pass, or the head's when
	// the base's config file could not be read. Absent when both sides'
	// settings are the same.
	JudgeChange *JudgeChange `json:"judge_change,omitempty"`
	// PolicyChange, when the settings that decide the verdict besides the
	// rubric (fail-on-breaking, lock) come from a config file of the
	// repository and the head's differ from the base's, says whose
	// decided: the base's, so that a change cannot switch off the check
	// that would block it, or the head's when the base's config file
	// could not be read. Absent when both sides' settings are the same.
	PolicyChange *PolicyChange `json:"policy_change,omitempty"`
	// CacheChange, when the answer cache lies in the repository and the
	// head adds or edits answers in it, says that the gate did not read
	// them. Absent otherwise.
	CacheChange *CacheChange `json:"cache_change,omitempty"`
	// PluginChange, when the plugins rubric starts (plugins.NAME.path and
	// sha256) come from a config file of the repository and the head's
	// differ from the base's, says that the gate started the base's for
	// both sides, so that a change cannot point the judge's name at
	// another program (or the head's, when the base's config file could
	// not be read). Absent when both sides' are the same.
	PluginChange *PolicyChange `json:"plugin_change,omitempty"`
	// PluginsRefused are the plugins of the work tree (a plugins.NAME.path
	// in the repository, ./.rubric/plugins, a path given as the judge)
	// that the gate did not start, not being pinned by sha256, because
	// the base does not have them as they are: the change being gated
	// (or a step of the job before the gate) could have put them there.
	// Absent when there are none.
	PluginsRefused []PluginRefusal `json:"plugins_refused,omitempty"`
	// Judge is who answered the rubric's questions; null when nothing was
	// asked (unchanged definitions, or a rubric without questions).
	Judge *report.Judge `json:"judge"`
	Base  Side          `json:"base"`
	Head  Side          `json:"head"`
	// Contract is every change to the tools' contract from the base to
	// the head, judged without a judge; null when a side could not be
	// read.
	Contract *Contract `json:"contract,omitempty"`
	// Lock is the head's tools checked against a lock file (rubric
	// lock), when the gate was given one: any tool that differs blocks.
	Lock *Lock `json:"lock,omitempty"`
	// Pairs are the scoring runs, base then head, in order.
	Pairs []Pair `json:"pairs"`
	// Medians are each side's median of the compared value over the
	// pairs, once there is more than one pair.
	Medians *Medians `json:"medians,omitempty"`
	// Fallen names, when the first pair dropped, the tools whose score
	// fell, worst first.
	Fallen []Fallen `json:"fallen,omitempty"`
	// AddedBelow are the tools the head adds whose score on the first
	// pair of a drop is below the mean of the base's tools' scores, so
	// that they lower the mean, worst first: the usual way a change
	// makes the definitions worse, which Fallen, of the tools both sides
	// have, cannot show.
	AddedBelow []AddedTool `json:"added_below,omitempty"`
	// Added and Removed are the tools only the head, or only the base, has.
	Added   []string `json:"added,omitempty"`
	Removed []string `json:"removed,omitempty"`
	// Information lists the other values of the surface that fell on the
	// first pair: shown, never part of the decision.
	Information []Change `json:"information,omitempty"`
	// Sizes are the sizes of both sides' definitions: shown beside the
	// scores, never part of the decision.
	Sizes *Sizes `json:"sizes,omitempty"`
	// Calls adds up every pair's calls.
	Calls    report.Calls `json:"calls"`
	Warnings []string     `json:"warnings"`
}

// RubricChange is a rubric the head changes: each side's, and whose
// scored both.
type RubricChange struct {
	// Used is whose rubric scored both sides: "base", or "head" when the
	// base has none that loads.
	Used string `json:"used"`
	// Base is the base's rubric, null when it has none; BaseRef is the
	// file (or built-in) the base chooses, as given; BaseError says why
	// it has none.
	Base      *report.Rubric `json:"base"`
	BaseRef   string         `json:"base_ref"`
	BaseError string         `json:"base_error,omitempty"`
	// Head is the head's rubric, null when it has none; HeadRef is the
	// file (or built-in) the head chooses.
	Head    *report.Rubric `json:"head"`
	HeadRef string         `json:"head_ref"`
	// Note says what changed and what the gate did about it, in words.
	Note string `json:"note"`
}

// HeadAnswers says that recorded answers of the head's answered: the
// answers file the base's settings name is new in the change, or the
// head's answers the questions the base's has no answer for.
func (c *JudgeChange) HeadAnswers() bool {
	return c.AnswersFile != nil && (c.AnswersFile.Base == "" || c.AnswersFile.HeadOnly > 0)
}

// AnswersChange is an answers file of the repository whose content the
// head changes: the path the settings name, the base's copy as REV:path,
// and each side's sha256 ("" when the side has no such file).
type AnswersChange struct {
	File     string `json:"file"`
	BaseFile string `json:"base_file"`
	Base     string `json:"base_sha256"`
	Head     string `json:"head_sha256"`
	// HeadOnly counts the head's answers to questions the base's file
	// has none for, which answered them.
	HeadOnly int `json:"head_only_answers,omitempty"`
}

// JudgeChange is a change the head makes, in a config file of the
// repository, to the settings that decide the judge's answers (the
// judge, its model, its options): each setting that differs, and whose
// values answered both sides. It is apart from RubricChange, whose
// format readers already know: a change of either may come alone.
type JudgeChange struct {
	// Used is whose settings answered both sides: "base", or "head" when
	// the base's config file could not be read (BaseError says why).
	Used string `json:"used"`
	// BaseFile and HeadFile are the config files each side's settings
	// come from, as REV:path for a revision; "" for a side without one
	// of its own, which has the user's settings or the defaults.
	BaseFile  string `json:"base_file"`
	BaseError string `json:"base_error,omitempty"`
	HeadFile  string `json:"head_file"`
	// Settings are the settings that differ, in a fixed order.
	Settings []SettingChange `json:"settings"`
	// AnswersFile, when set, is the replay judge's answers file, a file
	// of the repository that the base's settings name, whose answers the
	// head changes: the base's answered both sides, or the head's when
	// the base has no such file (its Base is then "").
	AnswersFile *AnswersChange `json:"answers_file,omitempty"`
	// Note says what changed and what the gate did about it, in words.
	Note string `json:"note"`
}

// SettingChange is one setting of the judge that the head changes: its
// key as a config file writes it, and each side's value ("" when the
// side leaves it unset).
type SettingChange struct {
	Key  string `json:"key"`
	Base string `json:"base"`
	Head string `json:"head"`
}

// PolicyChange is a change the head makes, in a config file of the
// repository, to the gate's own settings that decide the verdict
// (fail-on-breaking, lock): each setting that differs, and whose values
// the gate used. It is apart from RubricChange and JudgeChange: a change
// of either may come alone.
type PolicyChange struct {
	// Used is whose settings the gate used: "base", or "head" when the
	// base's config file could not be read (BaseError says why).
	Used string `json:"used"`
	// BaseFile and HeadFile are the config files each side's settings
	// come from, as REV:path for a revision; "" for a side without one
	// of its own, which has the user's settings or the defaults.
	BaseFile  string `json:"base_file"`
	BaseError string `json:"base_error,omitempty"`
	HeadFile  string `json:"head_file"`
	// Settings are the settings that differ, in a fixed order, each
	// side's value as the gate reads it ("false" for a flag left unset).
	Settings []SettingChange `json:"settings"`
	// Note says what changed and what the gate did about it, in words.
	Note string `json:"note"`
}

// PluginRefusal is a plugin of the work tree the gate did not start.
type PluginRefusal struct {
	// Kind and Name are the plugin's, as the catalog knows it (judge
	// mine for rubric-judge-mine, or plugins.mine).
	Kind string `json:"kind"`
	Name string `json:"name"`
	// Path is its executable, relative to the top of the repository.
	Path string `json:"path"`
	// Base says what the base has at Path: "none" (no file: the change
	// adds it, or git does not track it) or "other" (another file).
	Base string `json:"base"`
	// Note says what the gate did and what to do, in words.
	Note string `json:"note"`
}

// CacheChange is a change the head makes to the answer cache, when the
// cache directory lies in the repository: cache keys can be computed by
// anyone, so an answer file the change adds or edits could give a worse
// definition a better answer. The gate does not read those answers; it
// asks the judge again for any it needs.
type CacheChange struct {
	// Dir is the cache directory, relative to the top of the repository.
	Dir string `json:"dir"`
	// Files are the answer files (or folders of them) the gate did not
	// read, relative to the top of the repository: those the head adds
	// or edits since its merge base with the base, then those git does
	// not track (Untracked); or Dir itself when it is reached through
	// Link.
	Files []string `json:"files"`
	// Untracked are the files of Files that git does not track: no
	// commit vouches for them, and a step of the job before the gate
	// (one running the change's own scripts) may have written them.
	Untracked []string `json:"untracked,omitempty"`
	// Link, when set, is a symbolic link in the repository (relative to
	// its top) on the way to the cache directory: the change may point
	// it anywhere, so the gate read no answer of the cache.
	Link string `json:"link,omitempty"`
	// Note says what changed and what the gate did about it, in words.
	Note string `json:"note"`
}

// Contract is the contract diff of a gate and whether it may decide.
type Contract struct {
	// FailOnBreaking is whether a breaking change blocks; without it,
	// breaking changes are reported and the quality alone decides.
	FailOnBreaking bool `json:"fail_on_breaking"`
	contract.Diff
}

// Lock is the head's tools verified against a lock file.
type Lock struct {
	// File is the lock file as the gate was given it.
	File string `json:"file"`
	// Hash is the surface hash the lock file locked.
	Hash string `json:"hash"`
	// Changes are the tools of the head added, removed or changed since
	// they were locked, in name order; empty when every tool is as
	// locked.
	Changes []lock.Change `json:"changes"`
}

// Approve is the command that writes the lock file again from the
// head's tools, approving what changed (lock.Approve).
func (l *Lock) Approve() string { return lock.Approve(l.File) }

// Rule is the gate rule the decision followed, as the rubric declares
// it.
type Rule struct {
	// Title names the compared value, Value is its formula ("score" for
	// the overall score).
	Title string `json:"title"`
	Value string `json:"value"`
	// Round is the digits the value is rounded to before comparing.
	Round int `json:"round"`
	// Confirm is the pairs that confirm a drop on the first pair.
	Confirm  int  `json:"confirm"`
	Declared bool `json:"declared"`
}

// Side is one side of the comparison.
type Side struct {
	// Rev is the revision as the user named it ("" for the working tree),
	// Commit the commit it resolved to.
	Rev    string `json:"rev"`
	Commit string `json:"commit,omitempty"`
	// Hash is the surface hash of the side's tools/list.
	Hash      string `json:"hash"`
	ToolCount int    `json:"tool_count"`
}

// Pair is one scoring of the base and one of the head.
type Pair struct {
	N    int   `json:"pair"`
	Base Value `json:"base"`
	Head Value `json:"head"`
	// Drop is true when the head's compared value is below the base's.
	Drop bool `json:"drop"`
	// Calls are what the pair asked: both sides together.
	Calls report.Calls `json:"calls"`
}

// Value is a compared value: rounded as the rule says, and exact.
type Value struct {
	Value json.Number `json:"value"`
	Exact string      `json:"exact"`
}

// Medians are the two sides' medians of the compared value over the
// pairs.
type Medians struct {
	// Base and Head are rounded as the rule says, with one more digit
	// when the median of an even count of pairs falls between two such
	// values (the decision compares the exact medians).
	Base      json.Number `json:"base"`
	Head      json.Number `json:"head"`
	BaseExact string      `json:"base_exact"`
	HeadExact string      `json:"head_exact"`
}

// Fallen is a tool whose score fell on the first pair.
type Fallen struct {
	Tool string      `json:"tool"`
	Base json.Number `json:"base"`
	Head json.Number `json:"head"`
	// Cost is what this tool's fall alone does to the unrounded mean of
	// the tools' scores: (head - base) / the head's tool count, exact and
	// as a decimal.
	Cost      json.Number `json:"cost"`
	CostExact string      `json:"cost_exact"`
	// Dimensions are the parts of the tool's score that fell, when the
	// rubric's gate names them.
	Dimensions []Dimension `json:"dimensions,omitempty"`
}

// AddedTool is a tool the head adds that lowers the mean of the tools'
// scores.
type AddedTool struct {
	Tool string      `json:"tool"`
	Head json.Number `json:"head"`
	// Cost is what adding this tool alone does to the unrounded mean of
	// the tools' scores: (head - the base's mean) / the head's tool
	// count, exact and as a decimal; with the costs of the tools that
	// fell (and of those removed) it makes up the mean's change.
	Cost      json.Number `json:"cost"`
	CostExact string      `json:"cost_exact"`
}

// Dimension is one part of a tool's score that fell, with the judge's
// reason for the head's score.
type Dimension struct {
	Name          string      `json:"name"`
	Base          json.Number `json:"base"`
	Head          json.Number `json:"head"`
	Justification string      `json:"justification,omitempty"`
}

// Change is a value of the whole surface on both sides.
type Change struct {
	Name string      `json:"name"`
	Base json.Number `json:"base"`
	Head json.Number `json:"head"`
}

// Write writes r as indented JSON.
func Write(w io.Writer, r *Report) error {
	b, err := json.MarshalIndent(r, "", "  ")
	if err != nil {
		return err
	}
	_, err = w.Write(append(b, '\n'))
	return err
}

// Read reads a gate report written by Write.
func Read(path string) (*Report, error) {
	b, err := boundedread.ReadFile(context.Background(), path, boundedread.Limit())
	if err != nil {
		return nil, boundedread.Named(err, "gate report", path, "give the gate.json a run of rubric gate wrote (by default .rubric/gate.json)")
	}
	var r Report
	dec := json.NewDecoder(bytes.NewReader(b))
	dec.UseNumber()
	if err := dec.Decode(&r); err != nil {
		de := jsonpos.Decoding(path, b, err)
		return nil, fmt.Errorf("%s: not a gate report: %s (a gate report is the gate.json rubric gate writes)", de.Where(), de.Msg)
	}
	if r.GateVersion == 0 {
		if kind := report.Other(b, "gate_version"); kind != "" {
			return nil, fmt.Errorf("%s is %s, not a gate report (write one with rubric gate)", path, kind)
		}
	}
	if r.GateVersion != Version {
		return nil, fmt.Errorf("%s: gate report version %d, this rubric reads version %d", path, r.GateVersion, Version)
	}
	switch r.Decision {
	case Pass, Block, Invalid:
	default:
		return nil, fmt.Errorf("%s: decision %q is none of PASS, BLOCK and INVALID", path, r.Decision)
	}
	if r.Base.Hash == "" || r.Head.Hash == "" {
		return nil, fmt.Errorf("%s: the gate report records no surface hashes, so nothing can be checked against it", path)
	}
	return &r, nil
}
