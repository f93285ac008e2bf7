// Package pluginv1 is the Go code generated from ../rubric_plugin.proto:
// the messages and the gRPC services (Judge, Transport) of version 1 of
// the protocol between rubric and its plugins. The other files of this
// package are written by `go generate` in plugins/proto and never edited
// by hand; plugins/protocol is what rubric's own code calls.
package pluginv1
