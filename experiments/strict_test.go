package experiments

import (
	"strings"
	"testing"

	"go.yaml.in/yaml/v3"
)

type inner struct {
	Delta float64 `yaml:"delta"`
}

type embedded struct {
	Hidden int   `yaml:"hidden"`
	Rprop  inner `yaml:"rprop"`
}

type outer struct {
	Name     string `yaml:"name"`
	embedded `yaml:",inline"`
	Items    []inner          `yaml:"items"`
	ByName   map[string]inner `yaml:"by_name"`
}

func TestDecodeStrict(t *testing.T) {
	src := `name: x
hidden: five
rprop:
  delta: 0.1
  delt: 2
items:
  - delta: 1
  - deltaa: 1
by_name:
  a: {delta: 1, nope: 2}
bogus: 1
`
	var node yaml.Node
	if err := yaml.Unmarshal([]byte(src), &node); err != nil {
		t.Fatal(err)
	}
	var o outer
	errs := decodeStrict("c.yaml", &node, &o)
	got := errs.Error()
	for _, want := range []string{
		`c.yaml:2: cannot unmarshal !!str ` + "`five`",
		`c.yaml:5: unknown field "delt" (known: delta)`,
		`c.yaml:8: unknown field "deltaa"`,
		`c.yaml:10: unknown field "nope"`,
		`c.yaml:11: unknown field "bogus" (known: by_name, hidden, items, name, rprop)`,
	} {
		if !strings.Contains(got, want) {
			t.Errorf("missing %q in\n%s", want, got)
		}
	}
	if len(errs) != 5 {
		t.Errorf("%d errors:\n%s", len(errs), got)
	}
	if o.Name != "x" || o.Rprop.Delta != 0.1 || len(o.Items) != 2 {
		t.Errorf("decoded %+v", o)
	}
}
