package main

// The paper reports register themselves with package report (report.Register,
// report.RegisterFigure) when imported: pueval run, reproduce and report find
// them by the config's report: name, pueval figure by the figure's name. A new
// paper's report package is added here.
import (
	_ "github.com/pueval/pueval/report/aaai2017"
	_ "github.com/pueval/pueval/report/aul"
	_ "github.com/pueval/pueval/report/claesen2015"
	_ "github.com/pueval/pueval/report/psb2019"
	_ "github.com/pueval/pueval/report/pulp"
)
