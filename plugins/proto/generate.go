// Package proto holds the plugin protocol's definition (rubric_plugin.proto)
// and remakes its generated Go code in pluginv1 with `go generate`.
package proto

//go:generate buf generate
