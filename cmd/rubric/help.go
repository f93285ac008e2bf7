package main

import (
	"embed"
	"strings"
)

// helpTexts are the long help texts and examples of the commands, one
// file each, so that they read (and are reviewed) as text.
//
//go:embed help/*.txt
var helpTexts embed.FS

// help is the text of help/NAME.txt without its last newline.
func help(name string) string {
	b, err := helpTexts.ReadFile("help/" + name + ".txt")
	if err != nil {
		panic("cmd/rubric: no help text " + name) // a build mistake, which any run of the command finds
	}
	return strings.TrimSuffix(string(b), "\n")
}
