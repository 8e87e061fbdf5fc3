// Package experiments runs experiments from YAML configs: it
// loads and validates a [Config], expands its grid into cells, and runs
// each cell through a chain of plug-ins, writing one record per cell
// (package results) that a report (package report) turns into tables and
// figures.
//
// # A cell
//
// A cell is one data set, one value of each grid axis and one repeat. Its
// ID is "DATASET/axis=value/.../repeat=R" (axes in name order) and its seed
// is hashed from the experiment seed and that identity (SHA-256 of
// length-prefixed labels: "cell", the data set, each axis value's canonical
// text in axis-name order, the repeat), so a cell's result does not depend
// on which subset, shard, worker count or order ran it. A grid whose only
// axis is beta hashes as the first record schema's cells did, so their
// records and score caches stay valid. Each stage draws from
// its own stream derived from the cell's seed (labels "split",
// "classifier", and "estimator" with the estimator's ID).
//
// The stages of [Runner.Run] for a cell:
//
//  1. the data set, loaded once per run by its source (registry [Sources]:
//     the UCI catalog, generators, ready-made rankings);
//  2. the protocol (registry [Protocols]) draws the PU split: labeled L,
//     unlabeled U (and known negatives); the record's alpha and beta are the
//     true shares of positives in U and L;
//  3. scores of L u U: the classifier (classifiers.Defaults; the grid's
//     classifier axis, else the config's) trained L vs U and scored out of
//     bag, served by the content-keyed score cache when it has them; a
//     ranking source's own scores instead, with no classifier. The measured
//     scores are these (evaluate: pu) or those of the classifier trained on
//     all rows with the true labels (evaluate: supervised);
//  4. every estimator the config lists (classprior.Defaults; none when it
//     lists none) estimates (alpha, beta) from the L-vs-U scores (and the
//     feature rows, for estimators that read them), through the estimate
//     cache; a failure leaves that estimator out with a warning;
//  5. every truth the config lists (registry [Truths]) gives the scores
//     that, judged with the true labels, define the true value: same-model
//     (the measured scores themselves) or traditional (a supervised model
//     trained on the whole data set, once per data set);
//  6. every measure (registry [Measures]) computes its metrics from a
//     [CellRun]: the PU ranking, the recoveries with the true (alpha, beta)
//     and with each estimate, the truths' rankings. Keys are those of
//     package results: pu, truth:ID, direct:SOURCE, indirect:SOURCE,
//     recovered:SOURCE, truth-at:SOURCE, SOURCE being "real" or an
//     estimator's ID.
//
// A failure in a stage is a failed record naming it; a cancelled context
// records nothing for the cells in flight.
//
// # Plug-ins
//
// Every kind of plug-in follows the pattern of classifiers.Config: a struct
// of options with yaml tags, registered with a constructor of its defaults
// ([Registry.Register]); the loader decodes a config's options into it
// strictly (an unknown option is an error with its file and line, and
// every error of a config is reported at once), Validate checks them, New
// builds the working object, and Key is the canonical string of every
// option that can change a result (fields tagged key:"-", execution
// settings, stay out). Grid axes are registered with [RegisterAxis]: an
// axis parses its values to canonical texts, and is read by the protocols
// that list it in their Axes (beta, labeled) or by the runner (classifier).
// Reports register with package report; configs built into the binary with
// [RegisterConfigs], with the digests of their reference runs beside them
// ([ReferenceDigests]; package reference compares a run with them), and a
// paper's reproduction, the configs that make it, with
// [RegisterReproduction]. A plug-in sees the runner only through the cell it is
// given ([SplitInput], [CellRun]) and its [Env]: the supervised model's
// scores and the cell's named random [Streams]; every stage takes the
// context. A config computes what it states: no estimator or truth runs
// that it does not list ([Config.Plan] prints what it resolves to). A
// config that changes some settings of a paper's built-in one (an
// ablation) says which ([Config.Derivation]), in the manifest and the
// report.
//
// A paper is a set of plug-ins, its configs and a report in a package of
// its own (pueval's are under papers/; package examples/toypaper is a
// whole toy one); this package names none. Package plugintest is the
// conformance suite every plug-in passes.
//
// Built-in entries: protocol case-control (noisy case-control); sources
// uci, synth-gaussian, synth-scores, scores-file; truths same-model and
// traditional; measures auc, aucpr (recovered on U) and acc, bacc, f1, mcc
// (best over thresholds on L u U); axes beta, labeled, known-positives,
// known-negatives, classifier. Each documents its options on its type.
package experiments
