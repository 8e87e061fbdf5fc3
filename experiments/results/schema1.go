package results

import (
	"fmt"
	"maps"
	"slices"
)

// Schema 1 (pueval before the plug-in layer) named its record keys after
// the two papers it knew; schema 2 names them after what they are (see the
// key constants). Schema-1 records are upgraded on reading, so a results
// directory written by an older pueval is reported, and continued by `pueval
// run`, as if it had been written now. The mapping is exact: rerunning a
// schema-1 config today gives the upgraded records value for value
// (experiments' TestSchema1RecordsReproduced).
//
// Schema 1 recorded one estimate, under "E", whose method names the
// estimator; schema 2 records it under that name, its ID. Metric keys:
//
//	metrics auc, aucpr                      metrics acc, bacc, f1, mcc
//	truth            -> truth:traditional   truth    -> truth:same-model
//	truth_same_model -> truth:same-model    pu       -> pu
//	pu               -> pu                  pu_truth -> truth-at:pu
//	IR, IR_clip, DR  -> indirect:real,      CR       -> recovered:real
//	                    indirect-clip:real, CR_truth -> truth-at:real
//	                    direct:real         CE       -> recovered:ID
//	IE, IE_clip, DE  -> indirect:ID,        CE_truth -> truth-at:ID
//	                    indirect-clip:ID,
//	                    direct:ID
//
// (schema 1's "truth" meant the separately trained model on the unlabeled
// set for auc and aucpr, and the evaluated model's own scores on L u U for
// the threshold metrics.)
var schema1Keys = map[string]map[string]string{
	"auc":   schema1AUCKeys,
	"aucpr": schema1AUCKeys,
	"acc":   schema1ThresholdKeys,
	"bacc":  schema1ThresholdKeys,
	"f1":    schema1ThresholdKeys,
	"mcc":   schema1ThresholdKeys,
}

// The targets: "E" stands for the estimate's ID.
var (
	schema1AUCKeys = map[string]string{
		"truth": TruthKey("traditional"), "truth_same_model": TruthKey("same-model"), "pu": PU,
		"IR": RecoveryKey(Indirect, Real), "IR_clip": RecoveryKey(IndirectClip, Real), "DR": RecoveryKey(Direct, Real),
		"IE": RecoveryKey(Indirect, "E"), "IE_clip": RecoveryKey(IndirectClip, "E"), "DE": RecoveryKey(Direct, "E"),
	}
	schema1ThresholdKeys = map[string]string{
		"truth": TruthKey("same-model"), "pu": PU, "pu_truth": TruthAtKey(PU),
		"CR": RecoveryKey(Recovered, Real), "CR_truth": TruthAtKey(Real),
		"CE": RecoveryKey(Recovered, "E"), "CE_truth": TruthAtKey("E"),
	}
)

// schema1Estimate is schema 1's key of the estimate behind the E columns.
const schema1Estimate = "E"

// UpgradeRecord converts a schema-1 record to the current schema in place
// (a current record is left as it is). An unknown metric or key is an error:
// schema 1 wrote none.
func UpgradeRecord(r *Record) error {
	switch r.Schema {
	case SchemaVersion:
		return nil
	case 1:
	default:
		return fmt.Errorf("record schema %d: this pueval reads schemas 1 and %d", r.Schema, SchemaVersion)
	}
	id := ""
	if e, ok := r.Estimates[schema1Estimate]; ok {
		if e.Method == "" {
			return fmt.Errorf("cell %s: schema-1 estimate E names no method", r.Cell)
		}
		id = e.Method
		r.Estimates = map[string]Estimate{id: e}
	} else if len(r.Estimates) > 0 {
		return fmt.Errorf("cell %s: schema-1 estimates %v: want only E", r.Cell, slices.Sorted(maps.Keys(r.Estimates)))
	}
	for metric, byKey := range r.Metrics {
		mapping, ok := schema1Keys[metric]
		if !ok {
			return fmt.Errorf("cell %s: schema-1 metric %q is not one schema 1 wrote", r.Cell, metric)
		}
		out := make(map[string]float64, len(byKey))
		for k, v := range byKey {
			nk, ok := mapping[k]
			if !ok {
				return fmt.Errorf("cell %s: schema-1 key %s/%s is not one schema 1 wrote", r.Cell, metric, k)
			}
			if kind, src := SplitKey(nk); src == "E" {
				if id == "" {
					return fmt.Errorf("cell %s: schema-1 key %s/%s without an estimate E", r.Cell, metric, k)
				}
				nk = RecoveryKey(kind, id)
			}
			out[nk] = v
		}
		r.Metrics[metric] = out
	}
	r.Schema = SchemaVersion
	return nil
}
