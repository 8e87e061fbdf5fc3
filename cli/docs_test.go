package cli

// The docs check (part of go test ./..., so of make test and CI): the
// repository's Markdown is held to the code. Every relative link resolves
// (file and heading); every `pueval COMMAND` and flag that README.md, docs/,
// the papers' READMEs and the examples show exists, with that command's
// flags; every `make TARGET` they show is a target of the Makefile;
// README.md is at most 300 lines; docs/cli.md documents every command and
// sub-command with exactly its flags; and no file outside tests and
// testdata cites an issue number, a "spec §" or DESIGN.md, which no reader
// has. A new command or flag therefore fails here until docs/cli.md has it.

import (
	"bufio"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"sort"
	"strings"
	"testing"
	"unicode"
)

// maxReadmeLines is the most lines README.md may have: a newcomer's page,
// the details in docs/.
const maxReadmeLines = 300

// foreignFlags are flags of other programs that the docs name in prose or in
// a bare code span (sbatch's, in the Slurm pages), which the check would
// otherwise take for pueval's.
var foreignFlags = map[string]bool{
	"dependency": true, "kill-on-invalid-dep": true, "parsable": true, "array": true,
	"job-name": true, "output": true, "open-mode": true,
}

// repoRoot is the repository's root: cli's parent directory.
func repoRoot(t *testing.T) string {
	t.Helper()
	root, err := filepath.Abs("..")
	if err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(filepath.Join(root, "go.mod")); err != nil {
		t.Fatalf("no go.mod in %s: %v", root, err)
	}
	return root
}

// skipDir says which directories the checks do not walk: version control,
// build and run outputs, caches.
func skipDir(rel string) bool {
	switch rel {
	case ".git", "bin", "results", ".cache", "node_modules":
		return true
	}
	return false
}

// markdownFiles lists every Markdown file of the repository, relative to root.
func markdownFiles(t *testing.T, root string) []string {
	t.Helper()
	var files []string
	err := filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(root, p)
		if d.IsDir() {
			if rel != "." && skipDir(rel) {
				return filepath.SkipDir
			}
			return nil
		}
		if strings.HasSuffix(p, ".md") {
			files = append(files, filepath.ToSlash(rel))
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	sort.Strings(files)
	return files
}

// userDocs are the pages whose commands, flags and make targets are
// checked: what a user reads and copies.
func userDocs(t *testing.T, root string) []string {
	var out []string
	for _, f := range markdownFiles(t, root) {
		if f == "README.md" || strings.HasPrefix(f, "docs/") || strings.HasPrefix(f, "examples/") ||
			(strings.HasPrefix(f, "papers/") && strings.HasSuffix(f, "/README.md")) {
			out = append(out, f)
		}
	}
	return out
}

// line is one line of a Markdown file with where it came from and whether
// it lies in a fenced code block (and of which language).
type line struct {
	file  string
	no    int
	text  string
	fence bool
	lang  string
}

func readLines(t *testing.T, root, file string) []line {
	t.Helper()
	b, err := os.ReadFile(filepath.Join(root, file))
	if err != nil {
		t.Fatal(err)
	}
	var out []line
	fence, lang := false, ""
	sc := bufio.NewScanner(strings.NewReader(string(b)))
	sc.Buffer(make([]byte, 1<<20), 1<<20)
	for no := 1; sc.Scan(); no++ {
		text := sc.Text()
		if trimmed := strings.TrimSpace(text); strings.HasPrefix(trimmed, "```") {
			if !fence {
				fence, lang = true, strings.TrimSpace(strings.TrimPrefix(trimmed, "```"))
			} else {
				fence, lang = false, ""
			}
			continue
		}
		out = append(out, line{file: file, no: no, text: text, fence: fence, lang: lang})
	}
	return out
}

var codeSpan = regexp.MustCompile("`+[^`]+`+")

// shellFence says whether a fenced block's language is one whose lines are
// commands (output blocks are marked text and are not checked).
func shellFence(lang string) bool {
	switch lang {
	case "", "sh", "bash", "shell", "console":
		return true
	}
	return false
}

// codeSegments returns the code of a line: the whole line in a shell block,
// its code spans elsewhere; prose is the rest of a line outside a fence.
func codeSegments(l line) (code []string, prose string) {
	if l.fence {
		if shellFence(l.lang) {
			return []string{l.text}, ""
		}
		return nil, ""
	}
	for _, s := range codeSpan.FindAllString(l.text, -1) {
		code = append(code, strings.Trim(s, "`"))
	}
	return code, codeSpan.ReplaceAllString(l.text, " ")
}

// TestDocsLinksResolve: every relative link of the repository's Markdown
// names a file or directory that exists and, with #anchor, a heading of it.
func TestDocsLinksResolve(t *testing.T) {
	root := repoRoot(t)
	link := regexp.MustCompile(`\]\(([^)\s]+)(?:\s+"[^"]*")?\)|<(?:img|a)\s[^>]*(?:src|href)="([^"]+)"`)
	refDef := regexp.MustCompile(`^\s*\[[^\]]+\]:\s+(\S+)`)
	anchors := map[string]map[string]bool{}
	for _, f := range markdownFiles(t, root) {
		for _, l := range readLines(t, root, f) {
			if l.fence {
				continue
			}
			text := codeSpan.ReplaceAllString(l.text, "")
			var targets []string
			for _, m := range link.FindAllStringSubmatch(text, -1) {
				targets = append(targets, m[1]+m[2]) // one of the two is empty
			}
			if m := refDef.FindStringSubmatch(text); m != nil {
				targets = append(targets, m[1])
			}
			for _, target := range targets {
				if err := checkLink(root, f, target, anchors); err != nil {
					t.Errorf("%s:%d: link %s: %v", f, l.no, target, err)
				}
			}
		}
	}
}

func checkLink(root, from, target string, anchors map[string]map[string]bool) error {
	if strings.Contains(target, "://") || strings.HasPrefix(target, "mailto:") {
		return nil
	}
	path, anchor, _ := strings.Cut(target, "#")
	file := from
	if path != "" {
		if strings.HasPrefix(path, "/") {
			return fmt.Errorf("an absolute path; links are relative to the page")
		}
		file = filepath.ToSlash(filepath.Join(filepath.Dir(from), path))
		if strings.HasPrefix(file, "../") {
			return fmt.Errorf("leaves the repository")
		}
		if _, err := os.Stat(filepath.Join(root, file)); err != nil {
			return fmt.Errorf("no such file: %s", file)
		}
	}
	if anchor == "" || !strings.HasSuffix(file, ".md") {
		return nil
	}
	set, ok := anchors[file]
	if !ok {
		set = headingAnchors(root, file)
		anchors[file] = set
	}
	if !set[anchor] {
		return fmt.Errorf("%s has no heading with anchor #%s", file, anchor)
	}
	return nil
}

// headingAnchors are the anchors GitHub gives the headings of a Markdown
// file: lower case, spaces to hyphens, other punctuation dropped, a repeated
// anchor numbered -1, -2, ...
func headingAnchors(root, file string) map[string]bool {
	set := map[string]bool{}
	b, err := os.ReadFile(filepath.Join(root, file))
	if err != nil {
		return set
	}
	seen := map[string]int{}
	fence := false
	for _, text := range strings.Split(string(b), "\n") {
		if strings.HasPrefix(strings.TrimSpace(text), "```") {
			fence = !fence
			continue
		}
		if fence || !strings.HasPrefix(text, "#") {
			continue
		}
		a := slug(strings.TrimLeft(text, "#"))
		if n := seen[a]; n > 0 {
			set[fmt.Sprintf("%s-%d", a, n)] = true
		} else {
			set[a] = true
		}
		seen[a]++
	}
	return set
}

var mdLink = regexp.MustCompile(`\[([^\]]*)\]\([^)]*\)`)

func slug(heading string) string {
	heading = mdLink.ReplaceAllString(strings.TrimSpace(heading), "$1")
	var b strings.Builder
	for _, r := range strings.ToLower(heading) {
		switch {
		case unicode.IsLetter(r) || unicode.IsDigit(r) || r == '_' || r == '-':
			b.WriteRune(r)
		case r == ' ':
			b.WriteByte('-')
		}
	}
	return b.String()
}

// commandFlags is every command and sub-command of pueval ("evaluate",
// "datasets list", "config check") with the flags its -h lists.
func commandFlags(t *testing.T) map[string]map[string]bool {
	t.Helper()
	all := map[string]map[string]bool{}
	for _, c := range commands {
		switch c.name {
		case "datasets":
			for _, s := range datasetsSubs {
				all["datasets "+s.name] = helpFlags(t, "datasets", s.name, "-h")
			}
		case "config":
			all["config check"] = helpFlags(t, "config", "check", "-h")
		default:
			all[c.name] = helpFlags(t, c.name, "-h")
		}
	}
	return all
}

var helpFlagLine = regexp.MustCompile(`^  -([A-Za-z0-9][A-Za-z0-9-]*)(?:\s|$)`)

// helpFlags runs pueval ARGS (ending in -h) and returns the flags its help
// lists (the flag package's PrintDefaults lines).
func helpFlags(t *testing.T, args ...string) map[string]bool {
	t.Helper()
	out, _, err := runCLI(t, args...)
	if err != nil {
		t.Fatalf("pueval %s: %v", strings.Join(args, " "), err)
	}
	flags := map[string]bool{}
	for _, l := range strings.Split(out, "\n") {
		if m := helpFlagLine.FindStringSubmatch(l); m != nil {
			flags[m[1]] = true
		}
	}
	return flags
}

// commandKey is the command a pueval invocation's words name: "datasets
// list" for datasets and config, which have sub-commands, else the command.
func commandKey(words []string, known map[string]map[string]bool) (key string, rest []string) {
	if len(words) == 0 {
		return "", nil
	}
	if len(words) > 1 {
		if _, ok := known[words[0]+" "+words[1]]; ok {
			return words[0] + " " + words[1], words[2:]
		}
	}
	return words[0], words[1:]
}

var (
	shellSplit = regexp.MustCompile(`\s\|\s|&&|\|\||;|\s#|\$\(|\)`)
	flagToken  = regexp.MustCompile(`^--?([A-Za-z][A-Za-z0-9-]*)`)
	envAssign  = regexp.MustCompile(`^[A-Za-z_][A-Za-z0-9_]*=`)
	proseFlag  = regexp.MustCompile(`(?:^|[\s(\[,])--([a-z][a-z0-9-]*)`)
	makeCall   = regexp.MustCompile(`^make\s+((?:\s*-[A-Za-z]+)*)\s*([a-z][a-z0-9-]*)`)
)

// docIssue is one thing a page shows that pueval or the Makefile lacks.
type docIssue struct {
	where, what string
}

// checkSegment checks one command line of the docs (a shell line or a code
// span): a pueval invocation's command and flags, a make call's target, a
// bare flag's existence; another program's flags are its own business.
func checkSegment(seg string, known map[string]map[string]bool, anyFlag map[string]bool, targets map[string]bool) []string {
	var problems []string
	for _, part := range shellSplit.Split(seg, -1) {
		words := strings.Fields(part)
		for len(words) > 0 && (envAssign.MatchString(words[0]) || words[0] == "$" || words[0] == "time" || words[0] == "env") {
			words = words[1:]
		}
		if len(words) == 0 {
			continue
		}
		prog := words[0]
		switch {
		case prog == "pueval" || strings.HasSuffix(prog, "/pueval"):
			problems = append(problems, checkInvocation(words[1:], known)...)
		case prog == "make":
			if m := makeCall.FindStringSubmatch(strings.Join(words, " ")); m != nil && !targets[m[2]] && !placeholder(m[2]) {
				problems = append(problems, fmt.Sprintf("`make %s`: the Makefile has no target %s", m[2], m[2]))
			}
		case strings.HasPrefix(prog, "--"):
			if m := flagToken.FindStringSubmatch(prog); m != nil && !anyFlag[m[1]] && !foreignFlags[m[1]] && !placeholder(m[1]) {
				problems = append(problems, fmt.Sprintf("`%s`: no pueval command has the flag --%s", prog, m[1]))
			}
		}
	}
	return problems
}

// checkInvocation checks the words after "pueval": a known command and only
// its flags (-h and --help always).
func checkInvocation(words []string, known map[string]map[string]bool) []string {
	if len(words) == 0 {
		return nil
	}
	if w := words[0]; w == "-h" || w == "--help" || w == "-help" || w == "--version" || w == "-version" ||
		strings.ToUpper(w) == w || strings.HasPrefix(w, "[") {
		return nil // pueval -h, pueval COMMAND (a placeholder), pueval [flags]
	}
	key, rest := commandKey(words, known)
	flags, ok := known[key]
	if !ok {
		if _, isCmd := lookup(key); isCmd {
			return nil // datasets or config without a sub-command: their own help
		}
		return []string{fmt.Sprintf("`pueval %s`: no such command", key)}
	}
	var problems []string
	for _, w := range rest {
		w = strings.TrimLeft(w, "[(")
		m := flagToken.FindStringSubmatch(w)
		if m == nil || m[1] == "h" || m[1] == "help" {
			continue
		}
		name, _, _ := strings.Cut(m[1], "=")
		if !flags[name] && !placeholder(name) {
			problems = append(problems, fmt.Sprintf("`pueval %s` has no flag -%s", key, name))
		}
	}
	return problems
}

// placeholder says whether a name stands for others (reproduce-<name>,
// --peek-*): it ends in a hyphen.
func placeholder(name string) bool { return strings.HasSuffix(name, "-") }

// makeTargets are the Makefile's targets.
func makeTargets(t *testing.T, root string) map[string]bool {
	t.Helper()
	b, err := os.ReadFile(filepath.Join(root, "Makefile"))
	if err != nil {
		t.Fatal(err)
	}
	rule := regexp.MustCompile(`^([A-Za-z0-9_.-]+(?:\s+[A-Za-z0-9_.-]+)*)\s*:([^=]|$)`)
	targets := map[string]bool{}
	for _, l := range strings.Split(string(b), "\n") {
		if m := rule.FindStringSubmatch(l); m != nil && !strings.HasPrefix(m[1], ".") {
			for _, name := range strings.Fields(m[1]) {
				targets[name] = true
			}
		}
	}
	return targets
}

// TestDocsCommandsFlagsTargetsExist: every pueval command, flag and make
// target the user docs show exists.
func TestDocsCommandsFlagsTargetsExist(t *testing.T) {
	root := repoRoot(t)
	known := commandFlags(t)
	anyFlag := map[string]bool{}
	for _, flags := range known {
		for f := range flags {
			anyFlag[f] = true
		}
	}
	targets := makeTargets(t, root)
	if !targets["test"] || !targets["build"] {
		t.Fatalf("read no targets test and build from the Makefile: %v", targets)
	}
	for _, f := range userDocs(t, root) {
		for _, l := range readLines(t, root, f) {
			code, prose := codeSegments(l)
			for _, seg := range code {
				for _, p := range checkSegment(seg, known, anyFlag, targets) {
					t.Errorf("%s:%d: %s", f, l.no, p)
				}
			}
			for _, m := range proseFlag.FindAllStringSubmatch(prose, -1) {
				if !anyFlag[m[1]] && !foreignFlags[m[1]] && !placeholder(m[1]) {
					t.Errorf("%s:%d: --%s: no pueval command has this flag", f, l.no, m[1])
				}
			}
		}
	}
}

// TestReadmeShort: README.md is a newcomer's page of at most maxReadmeLines
// lines; the details live in docs/.
func TestReadmeShort(t *testing.T) {
	b, err := os.ReadFile(filepath.Join(repoRoot(t), "README.md"))
	if err != nil {
		t.Fatal(err)
	}
	if n := strings.Count(string(b), "\n"); n > maxReadmeLines {
		t.Errorf("README.md has %d lines, more than %d: move the details into docs/", n, maxReadmeLines)
	}
}

// cliDocSections reads docs/cli.md: for each heading "pueval COMMAND" (any
// level, backticks allowed), the flags of the first cells of its table rows.
func cliDocSections(t *testing.T, root string) map[string]map[string]bool {
	t.Helper()
	sections := map[string]map[string]bool{}
	var cur map[string]bool
	for _, l := range readLines(t, root, "docs/cli.md") {
		if l.fence {
			continue
		}
		if strings.HasPrefix(l.text, "#") {
			h := strings.Trim(strings.TrimSpace(strings.TrimLeft(l.text, "#")), "`")
			cur = nil
			if name, ok := strings.CutPrefix(h, "pueval "); ok {
				if _, dup := sections[name]; dup {
					t.Errorf("docs/cli.md:%d: a second section for pueval %s", l.no, name)
				}
				cur = map[string]bool{}
				sections[name] = cur
			}
			continue
		}
		if cur == nil || !strings.HasPrefix(l.text, "| ") {
			continue
		}
		cells := strings.Split(l.text, " | ")
		for _, s := range codeSpan.FindAllString(cells[0], -1) {
			if m := flagToken.FindStringSubmatch(strings.Trim(s, "`")); m != nil {
				cur[m[1]] = true
			}
		}
	}
	return sections
}

// TestCLIDocInSync: docs/cli.md has a section for every command and
// sub-command of pueval, and each section's table lists exactly the flags
// that command has.
func TestCLIDocInSync(t *testing.T) {
	root := repoRoot(t)
	known := commandFlags(t)
	doc := cliDocSections(t, root)
	names := slices.Sorted(func(yield func(string) bool) {
		for k := range known {
			if !yield(k) {
				return
			}
		}
	})
	for _, name := range names {
		flags := known[name]
		documented, ok := doc[name]
		if !ok {
			t.Errorf("docs/cli.md has no section \"## pueval %s\": document the command and its flags there", name)
			continue
		}
		for f := range flags {
			if !documented[f] {
				t.Errorf("docs/cli.md: pueval %s: flag --%s is missing from its table", name, f)
			}
		}
		for f := range documented {
			if !flags[f] {
				t.Errorf("docs/cli.md: pueval %s: documents --%s, which the command does not have", name, f)
			}
		}
	}
	for name, documented := range doc {
		if _, ok := known[name]; ok {
			continue
		}
		// A command with sub-commands (datasets) may have a section of its
		// own, without flags: they are its sub-commands'.
		if _, isCmd := lookup(name); !isCmd || len(documented) > 0 {
			t.Errorf("docs/cli.md documents pueval %s, which is not a command with those flags", name)
		}
	}
}

// citation finds what a reader cannot follow: an issue number, a "spec §"
// (or any §), DESIGN.md.
var citation = regexp.MustCompile(`(?i)\bissues?\s+#?\d+|\bpr\s+#\d+|§|\bDESIGN\.md\b`)

// hashNumber is GitHub's "#12" for an issue, looked for in Markdown only
// (in code, #777 is a colour).
var hashNumber = regexp.MustCompile(`(?:^|[\s(])#\d+\b`)

// TestNoIssueCitations: no file outside tests and testdata cites an issue
// number, a spec section or DESIGN.md: comments and docs say what and why;
// history belongs in commit messages.
func TestNoIssueCitations(t *testing.T) {
	root := repoRoot(t)
	comment := regexp.MustCompile(`\n\s*//\s*`)
	err := filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(root, p)
		rel = filepath.ToSlash(rel)
		if d.IsDir() {
			if rel != "." && (skipDir(rel) || d.Name() == "testdata" || rel == ".ci") {
				return filepath.SkipDir
			}
			return nil
		}
		if strings.HasSuffix(rel, "_test.go") || !citable(rel) {
			return nil
		}
		b, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		text := string(b)
		if strings.HasSuffix(rel, ".go") {
			text = comment.ReplaceAllString(text, " ") // a citation broken over comment lines
		}
		locs := citation.FindAllStringIndex(text, -1)
		if strings.HasSuffix(rel, ".md") {
			locs = append(locs, hashNumber.FindAllStringIndex(text, -1)...)
		}
		for _, loc := range locs {
			lo, hi := max(0, loc[0]-40), min(len(text), loc[1]+40)
			t.Errorf("%s: cites %q in %q", rel, strings.TrimSpace(text[loc[0]:loc[1]]), text[lo:hi])
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
}

// citable says whether a file is text a reader reads: source, docs,
// configs, the Makefile.
func citable(rel string) bool {
	switch filepath.Ext(rel) {
	case ".go", ".md", ".yaml", ".yml", ".s", ".py", ".sh", ".txt":
		return true
	}
	return filepath.Base(rel) == "Makefile"
}

// maxDocLines is the most lines a package's doc.go may have: what the
// package computes, its formulas and how to use it; long derivations and
// studies go to a page of docs/.
const maxDocLines = 200

// TestPackageDocsShort: no doc.go is longer than maxDocLines.
func TestPackageDocsShort(t *testing.T) {
	root := repoRoot(t)
	err := filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(root, p)
		if d.IsDir() {
			if rel != "." && (skipDir(rel) || d.Name() == "testdata") {
				return filepath.SkipDir
			}
			return nil
		}
		if d.Name() != "doc.go" {
			return nil
		}
		b, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		if n := strings.Count(string(b), "\n"); n > maxDocLines {
			t.Errorf("%s has %d lines, more than %d: move derivations and studies to a page of docs/", filepath.ToSlash(rel), n, maxDocLines)
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
}
