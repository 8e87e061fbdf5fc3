package cli

// The tests run the papers' configs, reports and figures: the papers register
// their plug-ins when imported, as in cmd/pueval (package cli itself names no
// paper).
import _ "github.com/pueval/pueval/papers/all"
