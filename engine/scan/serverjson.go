package scan

import (
	"fmt"
	"regexp"
	"slices"
	"strings"

	"github.com/rubricmcp/rubric/engine/transport"
)

// ServerJSON is the part of the official MCP registry's server.json that
// says how to start or reach a server: its packages (npm and pypi are
// installed; other registries are not) and its remotes.
type ServerJSON struct {
	Name     string       `json:"name"`
	Version  string       `json:"version"`
	Packages []RegPackage `json:"packages"`
	Remotes  []Remote     `json:"remotes"`
}

// RegPackage is one package of a server.json.
type RegPackage struct {
	RegistryType         string     `json:"registryType"`
	Identifier           string     `json:"identifier"`
	Version              string     `json:"version"`
	RuntimeHint          string     `json:"runtimeHint"`
	Transport            RegTrans   `json:"transport"`
	RuntimeArguments     []Argument `json:"runtimeArguments"`
	PackageArguments     []Argument `json:"packageArguments"`
	EnvironmentVariables []Argument `json:"environmentVariables"`
}

// RegTrans is a package's or a remote's transport.
type RegTrans struct {
	Type    string     `json:"type"`
	URL     string     `json:"url"`
	Headers []Argument `json:"headers"`
}

// Remote is a server reached at a URL, which may hold {placeholders}
// filled from its variables (URL template variables).
type Remote struct {
	Type      string              `json:"type"`
	URL       string              `json:"url"`
	Headers   []Argument          `json:"headers"`
	Variables map[string]Argument `json:"variables"`
}

// url is the remote's URL with each {placeholder} filled from its
// variables: their value, else their default. A placeholder whose
// variable has neither (or that no variable names) is an error naming
// it: a scan has no URL to choose for it, not even a placeholder.
func (r Remote) url() (string, error) {
	var missing []string
	u := placeholder.ReplaceAllStringFunc(r.URL, func(m string) string {
		name := m[1 : len(m)-1]
		if v, ok := r.Variables[name]; ok {
			if s, ok := v.resolve(); ok {
				return s
			}
		}
		missing = append(missing, name)
		return m
	})
	if len(missing) > 0 {
		return "", fmt.Errorf("remote %s: its URL's variable %s has no value and no default in the remote's variables: a scan cannot choose one; give the URL in a JSON list entry ({\"name\", \"target\"}) instead",
			r.URL, strings.Join(missing, ", "))
	}
	return u, nil
}

// Argument is an argument, an environment variable or a header of a
// server.json: a value that may hold {placeholders} filled from its
// variables, or a default.
type Argument struct {
	Type       string              `json:"type"` // positional or named
	Name       string              `json:"name"`
	Value      string              `json:"value"`
	ValueHint  string              `json:"valueHint"`
	Default    string              `json:"default"`
	IsRequired bool                `json:"isRequired"`
	IsSecret   bool                `json:"isSecret"`
	IsRepeated bool                `json:"isRepeated"`
	Variables  map[string]Argument `json:"variables"`
}

// Placeholder is the value a scan gives a required input that has no
// value, no default and no placeholder filled: servers that only check
// that a credential is set then start and list their tools.
const Placeholder = "rubric-scan-placeholder"

var placeholder = regexp.MustCompile(`\{([A-Za-z0-9_.-]+)\}`)

// resolve is the argument's value: its value with each {placeholder}
// filled from its variables (their value, else default), else its
// default; ok is false when it has none.
func (a Argument) resolve() (string, bool) {
	v := a.Value
	if v == "" {
		v = a.Default
	}
	if v == "" {
		return "", false
	}
	missing := false
	v = placeholder.ReplaceAllStringFunc(v, func(m string) string {
		name := m[1 : len(m)-1]
		if sub, ok := a.Variables[name]; ok {
			if s, ok := sub.resolve(); ok {
				return s
			}
			if sub.IsRequired || sub.IsSecret {
				return Placeholder
			}
		}
		missing = true
		return m
	})
	return v, !missing
}

// args turns arguments into a command line's: a named argument is its
// name, then its value when it has one; a positional one its value, or
// its value hint when it is required and has none.
func args(list []Argument) ([]string, error) {
	var out []string
	for _, a := range list {
		v, ok := a.resolve()
		switch a.Type {
		case "named":
			if !ok && a.Value == "" && a.Default == "" {
				out = append(out, a.Name)
				continue
			}
			if !ok {
				return nil, fmt.Errorf("argument %s: %q has a placeholder with no value", a.Name, a.Value)
			}
			out = append(out, a.Name, v)
		default:
			switch {
			case ok:
				out = append(out, v)
			case a.IsRequired && a.ValueHint != "":
				out = append(out, a.ValueHint)
			case a.IsRequired:
				return nil, fmt.Errorf("a required positional argument has no value, default or value hint")
			}
		}
	}
	return out, nil
}

// env turns environment variables into a server's environment: each
// with its value, else, when it is required, Placeholder.
func env(list []Argument) map[string]string {
	out := map[string]string{}
	for _, a := range list {
		if v, ok := a.resolve(); ok {
			out[a.Name] = v
		} else if a.IsRequired {
			out[a.Name] = Placeholder
		}
	}
	if len(out) == 0 {
		return nil
	}
	return out
}

// Job is the server as a scan job: its first npm or pypi package with a
// stdio transport, else its first remote. An entry with neither is a
// job that fails at the config stage, saying why.
func (s ServerJSON) Job() Job {
	j := Job{Name: s.Name}
	if s.Name == "" {
		j.Err = "the server.json has no name"
		return j
	}
	var skipped []string
	for _, p := range s.Packages {
		if p.RegistryType != "npm" && p.RegistryType != "pypi" {
			skipped = append(skipped, p.RegistryType)
			continue
		}
		if t := p.Transport.Type; t != "" && t != "stdio" {
			skipped = append(skipped, p.RegistryType+" over "+t)
			continue
		}
		j.Transport = "stdio"
		pkg := &Package{Registry: p.RegistryType, Identifier: p.Identifier, Version: p.Version, Runtime: p.RuntimeHint}
		var err error
		if pkg.RuntimeArgs, err = args(p.RuntimeArguments); err == nil {
			pkg.PackageArgs, err = args(p.PackageArguments)
		}
		if err != nil {
			j.Err = fmt.Sprintf("package %s: %v", p.Identifier, err)
		}
		j.Package = pkg
		j.Target = transport.Target{Location: pkg.Spec(), Env: env(p.EnvironmentVariables)}
		return j
	}
	for _, r := range s.Remotes {
		switch r.Type {
		case "streamable-http", "http":
			j.Transport = "http"
		case "sse":
			j.Transport = "sse"
		default:
			skipped = append(skipped, "remote "+r.Type)
			continue
		}
		u, err := r.url()
		if err != nil {
			j.Err, u = err.Error(), r.URL
		}
		j.Target = transport.Target{Location: u}
		for _, h := range r.Headers {
			if v, ok := h.resolve(); ok {
				if j.Target.Headers == nil {
					j.Target.Headers = map[string]string{}
				}
				j.Target.Headers[h.Name] = v
			}
		}
		return j
	}
	j.Err = "no npm or pypi package over stdio and no remote"
	if len(skipped) > 0 {
		slices.Sort(skipped)
		j.Err += " (it has: " + strings.Join(slices.Compact(skipped), ", ") + ")"
	}
	j.Err += ", which is all a scan can start: start the server yourself and list its command or URL in a JSON list entry ({\"name\", \"command\"} or {\"name\", \"target\"}), or list a capture of its tools"
	return j
}
