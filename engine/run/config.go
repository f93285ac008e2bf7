package run

import (
	"context"
	"fmt"
	"math"
	"strconv"

	"github.com/rubricmcp/rubric/engine/ask"

	"github.com/rubricmcp/rubric/engine/report"
	"github.com/rubricmcp/rubric/engine/report/serverset"
	"github.com/rubricmcp/rubric/engine/rubric"
)

// ScanConfig scores every server of the client configuration config
// with r, each its own report or failure record, and, when any server
// was read, their installed set with setRubric. A server that cannot be
// scored is in the document, not an error; the error is the context's
// end or the set's failure.
func (s *Session) ScanConfig(ctx context.Context, config string, servers []Server, r, setRubric *rubric.Rubric, o ServersOptions) (*serverset.Document, error) {
	results := s.ScanServers(ctx, servers, r, o)
	doc := &serverset.Document{Generator: report.Generator{Name: "rubric", Version: s.opt.Version}, Config: config, Disabled: o.Disabled}
	read := 0
	for _, res := range results {
		e := serverset.Entry{Name: res.Name, Report: res.Report}
		if res.Failed != nil {
			e.Failed = res.Failed
		}
		if res.Surface != nil {
			read++
		}
		doc.Servers = append(doc.Servers, e)
	}
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	if read > 0 {
		rep, err := s.Scan(ctx, Source{Surface: InstalledSet(config, results), Name: config}, setRubric, ScanOptions{})
		if err != nil {
			return nil, fmt.Errorf("the installed set: %w", err)
		}
		doc.Set = rep
	}
	return doc, nil
}

// SetBudget sets o's price table and the most the run may spend
// (maxCost, US dollars), with the judge's max_tokens option as the bound
// on each answer. given says whether a budget was given at all (a flag,
// the environment or the config): none is no bound, and a given one must
// be a finite number of dollars above 0, so that neither --max-cost 0
// nor a NaN from an unset variable reads as "no bound".
func (o *Options) SetBudget(prices *ask.Prices, maxCost float64, given bool) error {
	switch {
	case !given:
		maxCost = 0
	case math.IsNaN(maxCost) || math.IsInf(maxCost, 0):
		return fmt.Errorf("--max-cost %v is not a budget: give a number of US dollars above 0 (--max-cost 0.50), or leave the flag out for a run without a bound", maxCost)
	case maxCost == 0:
		return fmt.Errorf("--max-cost 0 would let no judge call start: give a budget above 0 US dollars (--max-cost 0.50), or leave the flag out for a run without a bound")
	case maxCost < 0:
		return fmt.Errorf("--max-cost %v: give a budget above 0 US dollars, or leave it out", maxCost)
	}
	o.Prices, o.MaxCost = prices, maxCost
	if n, ok := o.JudgeConfig.Options["max_tokens"]; ok {
		var err error
		if o.MaxOutput, err = strconv.Atoi(n); err != nil || o.MaxOutput < 1 {
			o.MaxOutput = 0 // the judge refuses it in its own words
		}
	}
	return nil
}
