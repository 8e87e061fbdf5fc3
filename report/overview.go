package report

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"

	"github.com/pueval/pueval/experiments/results"
)

// OverviewFile is the file of a report directory that sums the report up
// for a page of several reports (pueval reproduce-all's landing page).
const OverviewFile = "overview.json"

// Overview sums up a report: its title, the verdicts of the claims it
// checked, the run compared with its reference, and the run's size (not
// its times: a report's files are the same for the same records).
type Overview struct {
	Title      string `json:"title"` // the report's title, without the experiment
	Experiment string `json:"experiment"`
	// Claims counts the claims by verdict; nil when the report checks no
	// claims as pass or fail.
	Claims *ClaimCounts `json:"claims,omitempty"`
	// Verify is the run compared with its reference (Input.Verify).
	Verify Verification `json:"verify"`
	// Cells is the grid's size (the manifest's; the records' count without
	// one), Records the cells with a record, Failed those that failed.
	Cells   int `json:"cells"`
	Records int `json:"records"`
	Failed  int `json:"failed"`
}

// ClaimCounts counts claims by verdict.
type ClaimCounts struct {
	Hold       int `json:"hold"`
	DoNotHold  int `json:"do_not_hold"`
	NotChecked int `json:"not_checked"`
}

// overviewOf is the overview of the report of in titled title, with the
// claims its sections noted.
func overviewOf(title string, in Input, sink *claimSink) Overview {
	s := Overview{Title: title, Experiment: experimentOf(in), Verify: in.Verify, Cells: in.Manifest.Cells, Records: len(in.Records)}
	if s.Cells == 0 {
		s.Cells = s.Records
	}
	for _, r := range in.Records {
		if r.Status == results.StatusFailed {
			s.Failed++
		}
	}
	if sink.noted {
		h, f, o := CountVerdicts(sink.claims)
		s.Claims = &ClaimCounts{Hold: h, DoNotHold: f, NotChecked: o}
	}
	return s
}

// writeOverview writes dir/overview.json.
func writeOverview(dir string, s Overview) error {
	b, err := json.MarshalIndent(s, "", "  ")
	if err != nil {
		return err
	}
	return WriteFile(filepath.Join(dir, OverviewFile), append(b, '\n'))
}

// ReadOverview reads the overview of the report in dir.
func ReadOverview(dir string) (Overview, error) {
	path := filepath.Join(dir, OverviewFile)
	b, err := os.ReadFile(path)
	if err != nil {
		return Overview{}, err
	}
	var s Overview
	if err := json.Unmarshal(b, &s); err != nil {
		return Overview{}, fmt.Errorf("%s: %w", path, err)
	}
	return s, nil
}
