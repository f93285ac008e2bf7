package protocol

import (
	"context"
	"math"
	"net"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"google.golang.org/grpc"
	"google.golang.org/grpc/credentials/insecure"

	"github.com/rubricmcp/rubric/engine/surface"
	"github.com/rubricmcp/rubric/engine/transport"
	"github.com/rubricmcp/rubric/plugins/proto/pluginv1"
)

// handing is a transport whose document is a file: it names the file
// (path, size) when asked to, else sends doc, and counts each way.
type handing struct {
	path string
	size int64
	doc  []byte

	mu              sync.Mutex
	named, streamed int
}

func (h *handing) Name() string { return "handing" }
func (h *handing) Describe(context.Context) (transport.Info, error) {
	return transport.Info{Name: "handing", Locality: transport.Path}, nil
}
func (h *handing) Export(context.Context, transport.Target) (*surface.Surface, error) {
	panic("the document exporters are used")
}
func (h *handing) ExportPath(context.Context, transport.Target) (string, string, int64, error) {
	h.mu.Lock()
	defer h.mu.Unlock()
	h.named++
	return "tools.json", h.path, h.size, nil
}
func (h *handing) ExportDocument(context.Context, transport.Target) (string, []byte, error) {
	h.mu.Lock()
	defer h.mu.Unlock()
	h.streamed++
	return "tools.json", h.doc, nil
}

// serveTransport serves impl on a local socket as a plugin serves it and
// returns a client dialled as go-plugin dials.
func serveTransport(t *testing.T, impl transport.Transport) *TransportClient {
	t.Helper()
	return serveRaw(t, &transportServer{impl: impl})
}

// serveRaw serves a plugin's gRPC server as it is.
func serveRaw(t *testing.T, impl pluginv1.TransportServer) *TransportClient {
	t.Helper()
	lis, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	srv := Server(nil)
	pluginv1.RegisterTransportServer(srv, impl)
	go srv.Serve(lis)
	t.Cleanup(srv.Stop)
	conn, err := grpc.NewClient(lis.Addr().String(), grpc.WithTransportCredentials(insecure.NewCredentials()),
		grpc.WithDefaultCallOptions(grpc.MaxCallRecvMsgSize(math.MaxInt32), grpc.MaxCallSendMsgSize(math.MaxInt32)))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { conn.Close() })
	return &TransportClient{c: pluginv1.NewTransportClient(conn)}
}

// TestFileHandedByPath: a host that reads the plugin's files takes the
// file the transport names and reads it itself; one that does not, and
// one that cannot read the named file as announced, receive the bytes.
// Every way, the document is the file's.
func TestFileHandedByPath(t *testing.T) {
	dir := t.TempDir()
	doc := []byte(`{"tools":[{"name":"a","inputSchema":{"type":"object"}}]}`)
	file := filepath.Join(dir, "tools.json")
	if err := os.WriteFile(file, doc, 0o644); err != nil {
		t.Fatal(err)
	}
	for _, tt := range []struct {
		name       string
		localFiles bool
		path       string
		size       int64
		// wantNamed and wantStreamed are how often the plugin was asked
		// each way.
		wantNamed, wantStreamed int
	}{
		{"read by the host", true, file, int64(len(doc)), 1, 0},
		{"a host that does not read the plugin's files", false, file, int64(len(doc)), 0, 1},
		{"a file the host cannot open", true, filepath.Join(dir, "elsewhere.json"), int64(len(doc)), 1, 1},
		{"a file of another size than announced", true, file, int64(len(doc)) - 1, 1, 1},
		{"a relative path", true, "tools.json", int64(len(doc)), 1, 1},
		{"a directory", true, dir, int64(len(doc)), 1, 1},
	} {
		t.Run(tt.name, func(t *testing.T) {
			impl := &handing{path: tt.path, size: tt.size, doc: doc}
			c := serveTransport(t, impl)
			c.LocalFiles = tt.localFiles
			source, got, err := c.ExportDocument(context.Background(), transport.Target{Location: "tools.json"}, 1<<20)
			if err != nil {
				t.Fatal(err)
			}
			if source != "tools.json" || string(got) != string(doc) {
				t.Errorf("got %q from %q, want the file's bytes from tools.json", got, source)
			}
			if impl.named != tt.wantNamed || impl.streamed != tt.wantStreamed {
				t.Errorf("named the file %d times and streamed it %d times, want %d and %d", impl.named, impl.streamed, tt.wantNamed, tt.wantStreamed)
			}
		})
	}
}

// TestHandedFileOverTheLimit: a named file larger than the host takes
// is refused as a streamed one is, without being read.
func TestHandedFileOverTheLimit(t *testing.T) {
	file := filepath.Join(t.TempDir(), "tools.json")
	if err := os.WriteFile(file, []byte(`[]`), 0o644); err != nil {
		t.Fatal(err)
	}
	c := serveTransport(t, &handing{path: file, size: 2 << 20})
	c.LocalFiles = true
	if _, _, err := c.ExportDocument(context.Background(), transport.Target{}, 1<<20); err == nil || !strings.Contains(err.Error(), ErrTooLarge.Error()) {
		t.Errorf("got %v, want %v", err, ErrTooLarge)
	}
}

// pathAlways is a plugin that names its file whatever it is asked.
type pathAlways struct {
	pluginv1.UnimplementedTransportServer
	file string
}

func (p pathAlways) Export(_ *pluginv1.Target, stream grpc.ServerStreamingServer[pluginv1.ExportChunk]) error {
	return stream.Send(&pluginv1.ExportChunk{Source: "tools.json", Path: p.file, Size: 2})
}

// TestPathUnasked: a plugin that names a file to a host that did not
// accept one is an error, not a file read.
func TestPathUnasked(t *testing.T) {
	file := filepath.Join(t.TempDir(), "tools.json")
	if err := os.WriteFile(file, []byte(`[]`), 0o644); err != nil {
		t.Fatal(err)
	}
	c := serveRaw(t, pathAlways{file: file})
	_, _, err := c.ExportDocument(context.Background(), transport.Target{}, 1<<20)
	if err == nil || !strings.Contains(err.Error(), "where its bytes were asked for") {
		t.Errorf("got %v, want the plugin's answer refused", err)
	}
}
