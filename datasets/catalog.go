package datasets

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path"
	"regexp"
	"slices"
	"strconv"
	"strings"

	"go.yaml.in/yaml/v3"
)

// Catalog is the parsed data-set catalog (configs/datasets.yaml).
type Catalog struct {
	Version  int     `yaml:"version" json:"version"`
	Datasets []*Spec `yaml:"datasets" json:"datasets"`

	file string // where it was read from, for messages
}

// Spec describes one data set: where its files are, how to parse them, which
// column is the target and how it becomes a positive/negative label, how the
// features are encoded, and what the result must look like (counts and
// fingerprints).
type Spec struct {
	Name   string   `yaml:"name" json:"name"`
	Title  string   `yaml:"title" json:"title"`   // UCI's name of the data set
	URL    string   `yaml:"url" json:"url"`       // UCI landing page
	Papers []string `yaml:"papers" json:"papers"` // names of the papers (or other users) that use it: tags, not checked against a list
	// Rule says where the binarization rule comes from: "paper" (it reproduces
	// the paper's counts), "proposal" (the paper gives no rule; SOURCES-more.md
	// proposes this one) or "guess" (the paper's counts are matched only in
	// part; Notes say how).
	Rule     string     `yaml:"rule" json:"rule"`
	Files    []FileSpec `yaml:"files" json:"files"`
	Format   Format     `yaml:"format" json:"format"`
	MaxRows  int        `yaml:"max_rows" json:"max_rows,omitempty"` // keep the first MaxRows data rows (0 = all)
	Target   Target     `yaml:"target" json:"target"`
	Features Features   `yaml:"features" json:"features"`
	// Expect are the counts of the complete data set under this spec.
	Expect Counts `yaml:"expect" json:"expect"`
	// Fingerprint is the sha256 (hex) of the encoded data set (see package
	// doc), computed by this package on the mirror's files and frozen here.
	// Empty when the complete data set has never been seen.
	Fingerprint string    `yaml:"fingerprint" json:"fingerprint"`
	Partial     []Partial `yaml:"partial" json:"partial,omitempty"`
	// Unavailable, when set, says why the data set is not in the project's
	// mirror and where a user would get it. Loading still
	// tries every source; when the files are missing the error is an
	// *UnavailableError carrying this reason.
	Unavailable string `yaml:"unavailable" json:"unavailable,omitempty"`
	Notes       string `yaml:"notes" json:"notes"`

	line int // line of the entry in the catalog file
}

// FileSpec is one file of a data set. Path is relative to the archive base
// (https://archive.ics.uci.edu/ml/ or the mirror), e.g.
// "machine-learning-databases/housing/housing.data"; a member of a zip or
// a gzipped tar (.tar.gz, .tgz) is written "dir/archive.zip!member", and the
// member may be a glob (path.Match) that selects several members, read in
// name order.
type FileSpec struct {
	Path string `yaml:"path" json:"path"`
	// Labels names a file, parallel to Path (same line count), whose single
	// column is appended to each row of Path as its last column (UCI's HAPT
	// keeps X and y in separate files). For kind idx it is the IDX labels
	// file of the IDX images file Path (required).
	Labels string `yaml:"labels" json:"labels,omitempty"`
	// Optional files may be missing: the data set then loads without them,
	// with Complete=false and a warning that states the shortfall.
	Optional bool `yaml:"optional" json:"optional,omitempty"`
	// Fingerprint of the rows this file contributes (see package doc).
	Fingerprint string `yaml:"fingerprint" json:"fingerprint,omitempty"`
}

// Format says how to parse the files.
type Format struct {
	// Kind is one of: delimited (text with a delimiter), xls (Excel 97-2003
	// worksheet), gas (UCI gas-sensor lines "CLASS;CONC i:v ..."), documents
	// (a .tar.gz of text documents, one directory per class, encoded as
	// TF-IDF), idx (MNIST's IDX images with an IDX labels file, see
	// PerClass and Resample), none (no parser: only for unavailable data
	// sets).
	Kind string `yaml:"kind" json:"kind"`
	// Delimiter for delimited: comma, semicolon, tab or whitespace (runs of
	// spaces and tabs). Fields are trimmed of spaces; a field in double
	// quotes may contain the delimiter ("" is a quote).
	Delimiter string `yaml:"delimiter" json:"delimiter,omitempty"`
	// Header: the first line of every file names the columns.
	Header bool `yaml:"header" json:"header,omitempty"`
	// Names of the columns when there is no header (optional).
	Names []string `yaml:"names" json:"names,omitempty"`
	// Missing is the token for a missing value (default "?"). Missing values
	// are an error in numeric columns; in a categorical column the token is
	// an ordinary value when it is listed (Mushroom's stalk-root).
	Missing string `yaml:"missing" json:"missing,omitempty"`
	Sheet   string `yaml:"sheet" json:"sheet,omitempty"` // xls: worksheet name (default: the first)
	Width   int    `yaml:"width" json:"width,omitempty"` // gas: number of features
	// documents: keep the MaxFeatures most frequent terms (default 1000).
	MaxFeatures int `yaml:"max_features" json:"max_features,omitempty"`
	// idx: keep the first PerClass images of each label, in file order
	// (0 = every image). A label with fewer images is an error.
	PerClass int `yaml:"per_class" json:"per_class,omitempty"`
	// idx: resample the 28x28 images to Resample x Resample pixels by area
	// averaging (0 = keep 28x28). Pixels are divided by 255 either way.
	Resample int `yaml:"resample" json:"resample,omitempty"`
}

// Target says which column is the target and how its value becomes a label.
// Exactly one of Positive, GreaterThan and LessThan is set.
type Target struct {
	// Column: a 1-based column index, or a column name.
	Column string `yaml:"column" json:"column"`
	// Positive class values (exact, after trimming; * and ? glob).
	Positive []string `yaml:"positive" json:"positive,omitempty"`
	// Negative class values; when set, rows whose value is in neither list
	// are dropped (Gas: Ethanol vs Acetone only). When empty, every
	// non-positive row is negative.
	Negative []string `yaml:"negative" json:"negative,omitempty"`
	// GreaterThan: positive when the numeric target is > "mean", > "median"
	// (of the rows kept) or > a number.
	GreaterThan string `yaml:"greater_than" json:"greater_than,omitempty"`
	// LessThan: positive when the numeric target is < a number (or mean/median).
	LessThan string `yaml:"less_than" json:"less_than,omitempty"`
}

// Features says how non-target columns are encoded. Columns not named here
// are numeric, kept as they are.
type Features struct {
	Drop        []string             `yaml:"drop" json:"drop,omitempty"` // columns or ranges "a-b" (1-based) left out
	Categorical []CategoricalFeature `yaml:"categorical" json:"categorical,omitempty"`
	Binary      []BinaryFeature      `yaml:"binary" json:"binary,omitempty"`
	Sequence    []SequenceFeature    `yaml:"sequence" json:"sequence,omitempty"`
}

// CategoricalFeature one-hot encodes a column over the listed values, in the listed
// order (the values of the data set's .names file, including ones that never
// occur). A value not listed is an error.
type CategoricalFeature struct {
	Column string   `yaml:"column" json:"column"`
	Values []string `yaml:"values" json:"values"`
}

// BinaryFeature encodes a two-valued column as one 0/1 column: Values[0] -> 0,
// Values[1] -> 1.
type BinaryFeature struct {
	Column string   `yaml:"column" json:"column"`
	Values []string `yaml:"values" json:"values"`
}

// SequenceFeature one-hot encodes a fixed-length string (DNA, peptides) position by
// position over Alphabet: Length*len(Alphabet) columns.
type SequenceFeature struct {
	Column   string `yaml:"column" json:"column"`
	Alphabet string `yaml:"alphabet" json:"alphabet"`
	Length   int    `yaml:"length" json:"length"`
	// Unknown: "error" (default) or "zero": a letter outside the alphabet
	// (an ambiguity code) gives an all-zero position.
	Unknown string `yaml:"unknown" json:"unknown,omitempty"`
}

// Counts are the size of a data set: rows, positive rows and encoded features.
type Counts struct {
	N    int `yaml:"n" json:"n"`
	NPos int `yaml:"n_pos" json:"n_pos"`
	D    int `yaml:"d" json:"d"`
}

// Partial describes a data set loaded without some optional files: which
// files were missing, the counts and the fingerprint of what remains.
type Partial struct {
	Missing     []string `yaml:"missing" json:"missing"`
	Expect      Counts   `yaml:"expect" json:"expect"`
	Fingerprint string   `yaml:"fingerprint" json:"fingerprint"`
}

var (
	nameRE  = regexp.MustCompile(`^[a-z0-9][a-z0-9-]*$`)
	hexRE   = regexp.MustCompile(`^[0-9a-f]{64}$`)
	rangeRE = regexp.MustCompile(`^([0-9]+)-([0-9]+)$`)
)

// ReadCatalogFile reads a catalog from a file on disk.
func ReadCatalogFile(name string) (*Catalog, error) {
	b, err := os.ReadFile(name)
	if err != nil {
		return nil, fmt.Errorf("catalog: %w", err)
	}
	return ParseCatalog(b, name)
}

// ReadCatalogFS reads a catalog from a file system (for example the embedded
// configs.FS).
func ReadCatalogFS(fsys fs.FS, name string) (*Catalog, error) {
	b, err := fs.ReadFile(fsys, name)
	if err != nil {
		return nil, fmt.Errorf("catalog: %w", err)
	}
	return ParseCatalog(b, name)
}

// ParseCatalog parses and validates a catalog. Unknown fields, type errors
// and invalid entries are all reported at once, each with file:line.
func ParseCatalog(data []byte, file string) (*Catalog, error) {
	var c Catalog
	dec := yaml.NewDecoder(bytes.NewReader(data))
	dec.KnownFields(true)
	if err := dec.Decode(&c); err != nil {
		var te *yaml.TypeError
		if errors.As(err, &te) {
			msgs := make([]string, len(te.Errors))
			for i, m := range te.Errors {
				msgs[i] = file + ": " + m
			}
			return nil, fmt.Errorf("catalog %s:\n  %s", file, strings.Join(msgs, "\n  "))
		}
		return nil, fmt.Errorf("catalog %s: %w", file, err)
	}
	c.file = file
	// Line numbers of the entries, for validation messages.
	var root yaml.Node
	if err := yaml.Unmarshal(data, &root); err == nil && len(root.Content) == 1 {
		m := root.Content[0]
		for i := 0; i+1 < len(m.Content); i += 2 {
			if m.Content[i].Value == "datasets" && m.Content[i+1].Kind == yaml.SequenceNode {
				for k, item := range m.Content[i+1].Content {
					if k < len(c.Datasets) && c.Datasets[k] != nil {
						c.Datasets[k].line = item.Line
					}
				}
			}
		}
	}
	if errs := c.validate(); len(errs) > 0 {
		return nil, fmt.Errorf("catalog %s: %d error(s):\n  %s", file, len(errs), strings.Join(errs, "\n  "))
	}
	return &c, nil
}

// Lookup returns the spec of the named data set.
func (c *Catalog) Lookup(name string) (*Spec, bool) {
	for _, s := range c.Datasets {
		if s.Name == name {
			return s, true
		}
	}
	return nil, false
}

// Names returns the names of the catalogued data sets, in catalog order.
func (c *Catalog) Names() []string {
	out := make([]string, len(c.Datasets))
	for i, s := range c.Datasets {
		out[i] = s.Name
	}
	return out
}

// ForPaper returns the names of the data sets a paper uses, in catalog order.
func (c *Catalog) ForPaper(paper string) []string {
	var out []string
	for _, s := range c.Datasets {
		if slices.Contains(s.Papers, paper) {
			out = append(out, s.Name)
		}
	}
	return out
}

func (c *Catalog) validate() []string {
	var errs []string
	if c.Version != 1 {
		errs = append(errs, fmt.Sprintf("%s: version %d, want 1", c.file, c.Version))
	}
	if len(c.Datasets) == 0 {
		errs = append(errs, fmt.Sprintf("%s: no datasets", c.file))
	}
	seen := map[string]bool{}
	for i, s := range c.Datasets {
		if s == nil {
			errs = append(errs, fmt.Sprintf("%s: datasets[%d] is empty", c.file, i))
			continue
		}
		where := fmt.Sprintf("%s:%d: dataset %q", c.file, s.line, s.Name)
		for _, e := range s.validate() {
			errs = append(errs, where+": "+e)
		}
		if seen[s.Name] {
			errs = append(errs, where+": duplicate name")
		}
		seen[s.Name] = true
	}
	return errs
}

func (s *Spec) validate() []string {
	var errs []string
	bad := func(format string, a ...any) { errs = append(errs, fmt.Sprintf(format, a...)) }
	if !nameRE.MatchString(s.Name) {
		bad("name %q: want lower-case letters, digits and '-'", s.Name)
	}
	for _, p := range s.Papers {
		if !nameRE.MatchString(p) {
			bad("papers: %q: want a name of lower-case letters, digits and '-'", p)
		}
	}
	switch s.Rule {
	case "paper", "proposal", "guess":
	default:
		bad("rule %q: want paper, proposal or guess", s.Rule)
	}
	if len(s.Files) == 0 {
		bad("files: none listed")
	}
	paths := map[string]bool{}
	for i, f := range s.Files {
		if err := checkArchivePath(f.Path); err != nil {
			bad("files[%d].path: %v", i, err)
		}
		if paths[f.Path] {
			bad("files[%d].path %q listed twice", i, f.Path)
		}
		paths[f.Path] = true
		if f.Labels != "" {
			if err := checkArchivePath(f.Labels); err != nil {
				bad("files[%d].labels: %v", i, err)
			}
		}
		if f.Fingerprint != "" && !hexRE.MatchString(f.Fingerprint) {
			bad("files[%d].fingerprint %q: want 64 lower-case hex digits", i, f.Fingerprint)
		}
	}
	if s.Fingerprint != "" && !hexRE.MatchString(s.Fingerprint) {
		bad("fingerprint %q: want 64 lower-case hex digits", s.Fingerprint)
	}
	for i, p := range s.Partial {
		if len(p.Missing) == 0 {
			bad("partial[%d].missing: empty", i)
		}
		for _, m := range p.Missing {
			k := slices.IndexFunc(s.Files, func(f FileSpec) bool { return f.Path == m })
			if k < 0 || !s.Files[k].Optional {
				bad("partial[%d].missing: %q is not an optional file of this data set", i, m)
			}
		}
		if p.Fingerprint != "" && !hexRE.MatchString(p.Fingerprint) {
			bad("partial[%d].fingerprint %q: want 64 lower-case hex digits", i, p.Fingerprint)
		}
	}
	// d may be unknown (0) only for a data set we cannot parse.
	if s.Expect.N <= 0 || s.Expect.NPos <= 0 || s.Expect.NPos >= s.Expect.N || s.Expect.D < 0 || s.Expect.D == 0 && s.Format.Kind != "none" {
		bad("expect: n=%d n_pos=%d d=%d; want 0 < n_pos < n and d > 0", s.Expect.N, s.Expect.NPos, s.Expect.D)
	}
	if s.MaxRows < 0 {
		bad("max_rows %d: want >= 0", s.MaxRows)
	}
	f := s.Format
	switch f.Kind {
	case "delimited":
		switch f.Delimiter {
		case "comma", "semicolon", "tab", "whitespace":
		default:
			bad("format.delimiter %q: want comma, semicolon, tab or whitespace", f.Delimiter)
		}
	case "xls", "gas", "documents", "idx":
		if f.Delimiter != "" {
			bad("format.delimiter is only for kind delimited")
		}
	case "none":
		if s.Unavailable == "" {
			bad("format.kind none is only allowed for an unavailable data set")
		}
	default:
		bad("format.kind %q: want delimited, xls, gas, documents, idx or none", f.Kind)
	}
	if f.Kind == "gas" && f.Width <= 0 {
		bad("format.width: the gas format needs the number of features")
	}
	if f.Kind != "gas" && f.Width != 0 {
		bad("format.width is only for kind gas")
	}
	if f.MaxFeatures < 0 || (f.Kind != "documents" && f.MaxFeatures != 0) {
		bad("format.max_features is only for kind documents, and must be positive")
	}
	if f.PerClass < 0 || (f.Kind != "idx" && f.PerClass != 0) {
		bad("format.per_class is only for kind idx, and must be positive")
	}
	if f.Resample < 0 || f.Resample > idxSide || (f.Kind != "idx" && f.Resample != 0) {
		bad("format.resample is only for kind idx, and must be in 1..%d (the side of an MNIST image)", idxSide)
	}
	if f.Kind == "idx" {
		if f.Header || len(f.Names) > 0 {
			bad("format.header and format.names are not used with kind idx (the columns are label and pixels)")
		}
		for i, fs := range s.Files {
			if fs.Labels == "" {
				bad("files[%d].labels: kind idx needs the IDX labels file of each images file", i)
			}
		}
	}
	if f.Header && len(f.Names) > 0 {
		bad("format.names and format.header both given: the header names the columns")
	}
	if i, j, dup := duplicateName(f.Names); dup {
		bad("format.names: %d and %d are both %q (names are compared trimmed and case-insensitively)", i+1, j+1, f.Names[j])
	}
	if f.Kind == "none" {
		return errs
	}
	t := s.Target
	if t.Column == "" && f.Kind != "documents" && f.Kind != "idx" {
		bad("target.column: missing")
	}
	rules := 0
	if len(t.Positive) > 0 {
		rules++
	}
	if t.GreaterThan != "" {
		rules++
		if err := checkThreshold(t.GreaterThan); err != nil {
			bad("target.greater_than: %v", err)
		}
	}
	if t.LessThan != "" {
		rules++
		if err := checkThreshold(t.LessThan); err != nil {
			bad("target.less_than: %v", err)
		}
	}
	if rules != 1 {
		bad("target: give exactly one of positive, greater_than, less_than")
	}
	if len(t.Negative) > 0 && len(t.Positive) == 0 {
		bad("target.negative needs target.positive")
	}
	for _, p := range append(slices.Clone(t.Positive), t.Negative...) {
		if _, err := path.Match(p, ""); err != nil {
			bad("target: bad pattern %q: %v", p, err)
		}
	}
	for _, d := range s.Features.Drop {
		if d == "" {
			bad("features.drop: empty column")
		}
	}
	for _, c := range s.Features.Categorical {
		if c.Column == "" || len(c.Values) == 0 {
			bad("features.categorical: each needs a column and its values")
		}
		if dup := firstDuplicate(c.Values); dup != "" {
			bad("features.categorical %s: value %q listed twice", c.Column, dup)
		}
	}
	for _, b := range s.Features.Binary {
		if b.Column == "" || len(b.Values) != 2 || b.Values[0] == b.Values[1] {
			bad("features.binary %s: needs a column and two distinct values", b.Column)
		}
	}
	for _, q := range s.Features.Sequence {
		if q.Column == "" || q.Alphabet == "" || q.Length <= 0 {
			bad("features.sequence %s: needs a column, an alphabet and a length", q.Column)
		}
		if q.Unknown != "" && q.Unknown != "error" && q.Unknown != "zero" {
			bad("features.sequence %s: unknown %q, want error or zero", q.Column, q.Unknown)
		}
		if dup := firstDuplicate(strings.Split(q.Alphabet, "")); dup != "" {
			bad("features.sequence %s: letter %q twice in the alphabet", q.Column, dup)
		}
	}
	if (f.Kind == "documents" || f.Kind == "idx") && (len(s.Features.Drop)+len(s.Features.Categorical)+len(s.Features.Binary)+len(s.Features.Sequence) > 0) {
		bad("features: not used with kind %s (the %s are the features)", f.Kind, map[string]string{"documents": "terms", "idx": "pixels"}[f.Kind])
	}
	return errs
}

func firstDuplicate(vs []string) string {
	seen := map[string]bool{}
	for _, v := range vs {
		if seen[v] {
			return v
		}
		seen[v] = true
	}
	return ""
}

func checkThreshold(v string) error {
	if v == "mean" || v == "median" {
		return nil
	}
	if _, err := strconv.ParseFloat(v, 64); err != nil {
		return fmt.Errorf("%q: want mean, median or a number", v)
	}
	return nil
}

// checkArchivePath accepts a relative slash path without "..", with at most
// one "!" (a member of a zip or a gzipped tar).
func checkArchivePath(p string) error {
	if p == "" {
		return errors.New("empty")
	}
	container, member, isMember := strings.Cut(p, "!")
	if strings.Contains(member, "!") {
		return fmt.Errorf("%q: more than one '!'", p)
	}
	if container == "" || (isMember && member == "") {
		return fmt.Errorf("%q: empty path component", p)
	}
	for _, part := range []string{container, member} {
		if strings.HasPrefix(part, "/") || strings.Contains(part, "\\") {
			return fmt.Errorf("%q: want a relative path with '/'", p)
		}
		for _, seg := range strings.Split(part, "/") {
			if seg == ".." || seg == "." {
				return fmt.Errorf("%q: '.' and '..' are not allowed", p)
			}
		}
	}
	if isMember && !isZipContainer(container) && !isTarContainer(container) {
		return fmt.Errorf("%q: a member ('!') needs a .zip, .tar.gz or .tgz container", p)
	}
	if isMember {
		if _, err := path.Match(member, ""); err != nil {
			return fmt.Errorf("%q: bad member pattern: %v", p, err)
		}
	}
	return nil
}

// encodingVersion changes whenever the encoding below changes in a way that
// alters encoded data, which invalidates every cached encoded file.
const encodingVersion = 1

// specHash identifies everything that determines the encoded data: the
// encoder version and the spec without its descriptive fields and frozen
// fingerprints (which check the result but do not change it).
func (s *Spec) specHash() string {
	c := *s
	c.Title, c.URL, c.Papers, c.Rule, c.Notes, c.Unavailable = "", "", nil, "", "", ""
	c.Expect, c.Fingerprint, c.Partial = Counts{}, "", nil
	c.Files = slices.Clone(s.Files)
	for i := range c.Files {
		c.Files[i].Fingerprint = ""
	}
	b, err := json.Marshal(struct {
		V    int
		Spec Spec
	}{encodingVersion, c})
	if err != nil {
		panic(err) // a Spec always marshals: it holds only strings, ints and slices
	}
	h := sha256.Sum256(b)
	return hex.EncodeToString(h[:])
}
