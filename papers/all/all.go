// Package all imports every paper of pueval (papers/NAME), whose init
// functions register their plug-ins, reports and configs. A binary that
// should know the papers imports it for its side effects:
//
//	import _ "github.com/pueval/pueval/papers/all"
//
// A new paper is a new folder under papers/ and one line here.
package all

import (
	_ "github.com/pueval/pueval/papers/aaai2017"
	_ "github.com/pueval/pueval/papers/aul"
	_ "github.com/pueval/pueval/papers/claesen2015"
	_ "github.com/pueval/pueval/papers/psb2019"
	_ "github.com/pueval/pueval/papers/pulp"
)
