package lang

import (
	"bytes"
	"crypto/sha256"
	"fmt"
	"sort"
	"strings"
	"sync"

	"github.com/google/cel-go/cel"
	"github.com/google/cel-go/common/types"
	"github.com/google/cel-go/common/types/ref"
	"github.com/santhosh-tekuri/jsonschema/v6"

	"github.com/rubricmcp/rubric/internal/schemasize"
)

// schema_errors(value, schema) validates a value against a JSON Schema with
// a real validator (santhosh-tekuri/jsonschema: drafts 4 to 2020-12, the
// draft named by $schema, else 2020-12) and returns what is wrong, one
// string per failed keyword, as "/instance/path: message"; an empty list
// means the value is valid. A schema that does not compile (a remote $ref,
// a malformed keyword, more objects than schemasize.MaxObjects), or one too complex to validate on this value (see
// validationSteps), yields one entry saying so, so a formula can count it
// as a failure without the run failing. Nothing is ever fetched.
func validateFunctions() []cel.EnvOption {
	return []cel.EnvOption{
		cel.Function("schema_errors", cel.Overload("schema_errors_dyn_dyn", []*cel.Type{cel.DynType, cel.DynType}, cel.ListType(cel.StringType),
			cel.BinaryBinding(func(value, schema ref.Val) ref.Val {
				errs, err := schemaErrors(value, schema)
				if err != nil {
					return types.NewErr("schema_errors: %v", err)
				}
				return types.NewStringList(Adapter, errs)
			}))),
	}
}

// schemaErrors is what schema_errors returns: what is wrong with value
// under schema, sorted; nil when the value is valid. The error is for
// values that cannot be encoded as JSON.
func schemaErrors(value, schema ref.Val) ([]string, error) {
	sj, err := CanonicalJSON(schema)
	if err != nil {
		return nil, fmt.Errorf("schema: %w", err)
	}
	vj, err := CanonicalJSON(value)
	if err != nil {
		return nil, fmt.Errorf("value: %w", err)
	}
	c := compiledSchema(sj)
	if c.err != nil {
		return []string{"the schema does not compile: " + oneLine(c.err.Error())}, nil
	}
	v, err := jsonschema.UnmarshalJSON(bytes.NewReader(vj))
	if err != nil {
		return nil, fmt.Errorf("value: %w", err)
	}
	if validationSteps(c.doc, v) > maxValidationSteps {
		return []string{tooComplex}, nil
	}
	verr := c.s.Validate(v)
	if verr == nil {
		return nil, nil
	}
	ve, ok := verr.(*jsonschema.ValidationError)
	if !ok {
		return []string{oneLine(verr.Error())}, nil
	}
	var out []string
	for _, u := range ve.BasicOutput().Errors {
		if u.Error == nil {
			continue
		}
		loc := u.InstanceLocation
		if loc == "" {
			loc = "/"
		}
		out = append(out, loc+": "+oneLine(u.Error.String()))
	}
	if len(out) == 0 {
		out = []string{oneLine(ve.Error())}
	}
	sort.Strings(out)
	return out, nil
}

// maxCachedSchemas bounds the compiled schemas kept for reuse: a surface
// has one inputSchema per tool, and a run asks about the same few many
// times.
const maxCachedSchemas = 4096

var schemaCache struct {
	sync.Mutex
	m map[[32]byte]compiled
}

// tooComplex is what schema_errors says of a validation it refuses to run.
var tooComplex = fmt.Sprintf("/: the schema is too complex to validate: its allOf, anyOf, oneOf and $ref branches would take more than %d steps on this value", maxValidationSteps)

type compiled struct {
	s   *jsonschema.Schema
	doc any // the schema as decoded, for validationSteps
	err error
}

// compiledSchema compiles a schema given as canonical JSON, once per
// distinct schema.
func compiledSchema(canonical []byte) compiled {
	key := sha256.Sum256(canonical)
	schemaCache.Lock()
	c, ok := schemaCache.m[key]
	schemaCache.Unlock()
	if ok {
		return c
	}
	c.s, c.doc, c.err = compileSchema(canonical)
	schemaCache.Lock()
	if schemaCache.m == nil || len(schemaCache.m) >= maxCachedSchemas {
		schemaCache.m = map[[32]byte]compiled{}
	}
	schemaCache.m[key] = c
	schemaCache.Unlock()
	return c
}

func compileSchema(canonical []byte) (*jsonschema.Schema, any, error) {
	doc, err := jsonschema.UnmarshalJSON(bytes.NewReader(canonical))
	if err != nil {
		return nil, nil, err
	}
	if schemasize.TooLarge(doc) {
		return nil, doc, errTooLarge
	}
	c := jsonschema.NewCompiler()
	c.UseLoader(noLoader{})
	const loc = "rubric:schema.json"
	if err := c.AddResource(loc, doc); err != nil {
		return nil, nil, err
	}
	s, err := c.Compile(loc)
	return s, doc, err
}

// errTooLarge is why a schema past schemasize.MaxObjects is not compiled.
var errTooLarge = fmt.Errorf("it holds more than %d JSON objects and booleans, more than rubric compiles (compiling may cost the square of them)", schemasize.MaxObjects)

// noLoader refuses every reference outside the schema: a formula never
// reaches the network or the disk.
type noLoader struct{}

func (noLoader) Load(url string) (any, error) {
	return nil, fmt.Errorf("%s is outside the schema, and references are not fetched", url)
}

func oneLine(s string) string { return strings.Join(strings.Fields(s), " ") }
