// Package registry is the transport for registry captures: a JSON file
// {"release", "server", "tools": [{"name", "definition", "qualityScore"}]}
// holding the definitions a registry published and the scores it gave
// them. Unlike the file transport, it refuses any other shape, so a run
// meant for a registry's definitions cannot silently read a plain
// tools/list.
//
// What it exports is a surface: the definitions. The published scores
// are no part of one; rubric calibrate reads them from the capture file
// itself (package calibrate), together with what else only a capture has
// (its release, when it was scored).
package registry

import (
	"context"
	"fmt"
	"strings"

	"github.com/rubricmcp/rubric/engine/surface"
	"github.com/rubricmcp/rubric/engine/transport"
	"github.com/rubricmcp/rubric/internal/buildinfo"
	"github.com/rubricmcp/rubric/plugins/transports/file"
)

// Transport reads registry captures from files.
type Transport struct{}

// Name implements transport.Transport.
func (Transport) Name() string { return "registry" }

// Describe implements transport.Transport: a registry capture's file.
func (Transport) Describe(context.Context) (transport.Info, error) {
	return transport.Info{Name: "registry", Version: buildinfo.Version(), Schemes: []string{"registry"}, Locality: transport.Path}, nil
}

// Export implements transport.Transport.
func (t Transport) Export(ctx context.Context, target transport.Target) (*surface.Surface, error) {
	s, _, err := t.read(ctx, target)
	return s, err
}

// ExportDocument implements protocol.DocumentExporter: the capture's own
// bytes, once they are known to be a registry capture, so the host parses
// what the registry published rather than a re-encoding of it.
func (t Transport) ExportDocument(ctx context.Context, target transport.Target) (string, []byte, error) {
	s, doc, err := t.read(ctx, target)
	if err != nil {
		return "", nil, err
	}
	return s.Source, doc, nil
}

// read reads and parses the file, refusing any shape but a registry
// capture.
func (Transport) read(ctx context.Context, target transport.Target) (*surface.Surface, []byte, error) {
	target.Location = strings.TrimPrefix(target.Location, "registry://")
	name, doc, err := file.Transport{}.ExportDocument(ctx, target)
	if err != nil {
		return nil, nil, err
	}
	s, err := surface.Parse(name, doc)
	if err != nil {
		return nil, nil, err
	}
	if s.Format != surface.FormatRegistry {
		return nil, nil, fmt.Errorf("%s is a %s, not a registry capture {\"release\", \"server\", \"tools\": [{\"name\", \"definition\", \"qualityScore\"}]}; read it with --transport file", s.Source, describe(s.Format))
	}
	return s, doc, nil
}

func describe(format string) string {
	switch format {
	case surface.FormatArray:
		return "bare array of tools"
	case surface.FormatCapture:
		return "capture"
	}
	return format + " result"
}
