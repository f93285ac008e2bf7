package run

import (
	"context"
	"fmt"
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
	doc := &serverset.Document{Generator: report.Generator{Name: "rubric", Version: s.opt.Version}, Config: config}
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
// (maxCost, US dollars; 0: no bound), with the judge's max_tokens option
// as the bound on each answer.
func (o *Options) SetBudget(prices *ask.Prices, maxCost float64) error {
	if maxCost < 0 {
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
