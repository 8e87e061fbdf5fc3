package plugintest

import (
	"fmt"
	"reflect"
	"strings"
	"testing"

	"github.com/pueval/pueval/experiments"
)

// checkOptions runs checks 1-3 on fresh options from defaults.
func checkOptions(t *testing.T, kind, name string, defaults func() experiments.Plugin, required string) {
	t.Helper()
	// 1. Defaults decode.
	c := defaults()
	if errs := experiments.DecodeOptions("x.yaml", required+"\n", c); len(errs) > 0 {
		t.Errorf("%s %s: the default options do not decode: %v", kind, name, errs)
	}
	if err := c.Validate(); err != nil {
		t.Errorf("%s %s: the default options do not validate: %v", kind, name, err)
	}
	base := withRequired(t, defaults, required)
	if c.Key() != base.Key() {
		t.Errorf("%s %s: decoding no options changed the key: %q vs %q", kind, name, c.Key(), base.Key())
	}
	// 2. An unknown option fails with its line.
	errs := experiments.DecodeOptions("x.yaml", required+"\n\nbogus_option_xyz: 1\n", defaults())
	if line := strings.Count(required, "\n") + 3; len(errs) == 0 ||
		!strings.Contains(errs.Error(), fmt.Sprintf("x.yaml:%d:", line)) || !strings.Contains(errs.Error(), "bogus_option_xyz") {
		t.Errorf("%s %s: an unknown option gave %v, want an error at x.yaml:%d naming it", kind, name, errs, line)
	}
	// 3. Every option is in the key.
	for _, path := range optionPaths(reflect.TypeOf(base)) {
		c := withRequired(t, defaults, required)
		perturb(reflect.ValueOf(c), path)
		if c.Key() == base.Key() {
			t.Errorf("%s %s: changing option %s does not change the key %q (tag it key:\"-\" if it never changes a result)",
				kind, name, pathName(reflect.TypeOf(base), path), base.Key())
		}
	}
}

// withRequired returns fresh defaults with the required options decoded.
func withRequired(t *testing.T, defaults func() experiments.Plugin, required string) experiments.Plugin {
	t.Helper()
	c := defaults()
	if errs := experiments.DecodeOptions("x.yaml", required, c); len(errs) > 0 {
		t.Fatalf("the required options %q do not decode: %v", required, errs)
	}
	return c
}

// optionPaths lists the field index paths of the YAML options of t (a
// pointer to a struct): exported, tagged, not key:"-", through inline and
// nested structs down to the leaves.
func optionPaths(t reflect.Type) [][]int {
	for t.Kind() == reflect.Pointer {
		t = t.Elem()
	}
	var out [][]int
	for i := range t.NumField() {
		f := t.Field(i)
		tag := f.Tag.Get("yaml")
		if tag == "-" || f.Tag.Get("key") == "-" || (!f.IsExported() && !f.Anonymous) {
			continue
		}
		ft := f.Type
		if ft.Kind() == reflect.Struct {
			for _, sub := range optionPaths(ft) {
				out = append(out, append([]int{i}, sub...))
			}
			continue
		}
		if f.IsExported() {
			out = append(out, []int{i})
		}
	}
	return out
}

func pathName(t reflect.Type, path []int) string {
	for t.Kind() == reflect.Pointer {
		t = t.Elem()
	}
	var parts []string
	for _, i := range path {
		f := t.Field(i)
		parts = append(parts, f.Name)
		t = f.Type
	}
	return strings.Join(parts, ".")
}

// perturb changes the field at path of v (a pointer to a struct) to another value.
func perturb(v reflect.Value, path []int) {
	for v.Kind() == reflect.Pointer {
		v = v.Elem()
	}
	for _, i := range path {
		v = v.Field(i)
	}
	change(v)
}

func change(v reflect.Value) {
	switch v.Kind() {
	case reflect.String:
		v.SetString(v.String() + "x")
	case reflect.Int, reflect.Int64, reflect.Int32:
		v.SetInt(v.Int() + 1)
	case reflect.Uint, reflect.Uint64, reflect.Uint32:
		v.SetUint(v.Uint() + 1)
	case reflect.Float64, reflect.Float32:
		v.SetFloat(v.Float() + 0.5)
	case reflect.Bool:
		v.SetBool(!v.Bool())
	case reflect.Pointer:
		if v.IsNil() {
			v.Set(reflect.New(v.Type().Elem()))
		}
		change(v.Elem())
	case reflect.Array:
		change(v.Index(0))
	case reflect.Slice:
		if v.Len() == 0 {
			v.Set(reflect.Append(v, reflect.Zero(v.Type().Elem())))
		} else {
			c := reflect.MakeSlice(v.Type(), v.Len(), v.Len())
			reflect.Copy(c, v)
			v.Set(c)
		}
		change(v.Index(0))
	default:
		panic("plugintest: cannot change a " + v.Kind().String())
	}
}
