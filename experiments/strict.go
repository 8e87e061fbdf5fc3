package experiments

import (
	"errors"
	"fmt"
	"reflect"
	"slices"
	"strings"

	"go.yaml.in/yaml/v3"
)

// FieldError is a problem at a place in a config file.
type FieldError struct {
	File string
	Line int
	Msg  string
}

func (e FieldError) Error() string {
	if e.Line > 0 {
		return fmt.Sprintf("%s:%d: %s", e.File, e.Line, e.Msg)
	}
	return fmt.Sprintf("%s: %s", e.File, e.Msg)
}

// Errors is a list of config problems, reported together.
type Errors []FieldError

func (es Errors) Error() string {
	var b strings.Builder
	for i, e := range es {
		if i > 0 {
			b.WriteString("\n")
		}
		b.WriteString(e.Error())
	}
	return b.String()
}

// decodeStrict decodes node into out (a pointer), reporting every unknown
// field (at any depth, following yaml ",inline" structs) and every type error,
// each with its line. yaml.v3's Decoder.KnownFields only works on a whole
// document and is lost inside custom unmarshalers, so plug-in options (whose
// types the registries choose at run time) are checked here by reflection.
func decodeStrict(file string, node *yaml.Node, out any) Errors {
	var errs Errors
	checkKnown(file, node, reflect.TypeOf(out), &errs)
	if err := node.Decode(out); err != nil {
		var te *yaml.TypeError
		if errors.As(err, &te) {
			for _, msg := range te.Errors {
				errs = append(errs, parseYAMLError(file, msg))
			}
		} else {
			errs = append(errs, FieldError{File: file, Line: node.Line, Msg: err.Error()})
		}
	}
	return errs
}

// yamlNodeType is skipped by checkKnown: such fields are decoded by their own rules.
var yamlNodeType = reflect.TypeOf(yaml.Node{})

// parseYAMLError turns yaml.v3's "line N: msg" into a FieldError.
func parseYAMLError(file, msg string) FieldError {
	var line int
	if _, err := fmt.Sscanf(msg, "line %d:", &line); err == nil {
		msg = strings.TrimSpace(msg[strings.Index(msg, ":")+1:])
	}
	return FieldError{File: file, Line: line, Msg: msg}
}

// checkKnown reports the mapping keys of node that t (a struct, or pointer,
// slice, array or map of one) has no field for.
func checkKnown(file string, node *yaml.Node, t reflect.Type, errs *Errors) {
	for t.Kind() == reflect.Pointer {
		t = t.Elem()
	}
	if t == yamlNodeType {
		return // decoded later by its own rules (plug-in options)
	}
	if node.Kind == yaml.DocumentNode && len(node.Content) == 1 {
		checkKnown(file, node.Content[0], t, errs)
		return
	}
	if node.Kind == yaml.AliasNode {
		return
	}
	switch t.Kind() {
	case reflect.Struct:
		if node.Kind != yaml.MappingNode {
			return // a type error, reported by Decode
		}
		fields := yamlFields(t)
		for i := 0; i+1 < len(node.Content); i += 2 {
			k, v := node.Content[i], node.Content[i+1]
			ft, ok := fields[k.Value]
			if !ok {
				*errs = append(*errs, FieldError{File: file, Line: k.Line,
					Msg: fmt.Sprintf("unknown field %q (known: %s)", k.Value, strings.Join(sortedKeys(fields), ", "))})
				continue
			}
			checkKnown(file, v, ft, errs)
		}
	case reflect.Slice, reflect.Array:
		if node.Kind == yaml.SequenceNode {
			for _, c := range node.Content {
				checkKnown(file, c, t.Elem(), errs)
			}
		}
	case reflect.Map:
		if node.Kind == yaml.MappingNode {
			for i := 1; i < len(node.Content); i += 2 {
				checkKnown(file, node.Content[i], t.Elem(), errs)
			}
		}
	}
}

// yamlFields maps the YAML names of t's fields (inline structs flattened) to their types.
func yamlFields(t reflect.Type) map[string]reflect.Type {
	out := map[string]reflect.Type{}
	for i := range t.NumField() {
		f := t.Field(i)
		tag := f.Tag.Get("yaml")
		name, opts, _ := strings.Cut(tag, ",")
		if name == "-" {
			continue
		}
		if slices.Contains(strings.Split(opts, ","), "inline") {
			ft := f.Type
			for ft.Kind() == reflect.Pointer {
				ft = ft.Elem()
			}
			for k, v := range yamlFields(ft) {
				out[k] = v
			}
			continue
		}
		if !f.IsExported() {
			continue
		}
		if name == "" {
			name = strings.ToLower(f.Name) // yaml.v3's default
		}
		out[name] = f.Type
	}
	return out
}

func sortedKeys(m map[string]reflect.Type) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	return keys
}

// DecodeOptions decodes YAML option lines into a plug-in's options (a
// pointer) as the config loader does: strictly, every unknown option and
// every type error an error with file and line. Empty src decodes nothing.
func DecodeOptions(file, src string, opts any) Errors {
	var n yaml.Node
	if err := yaml.Unmarshal([]byte(src), &n); err != nil {
		return Errors{parseYAMLError(file, err.Error())}
	}
	if n.Kind == 0 {
		return nil
	}
	return decodeStrict(file, &n, opts)
}
