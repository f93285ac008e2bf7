// Package tokens counts the tokens of a text as OpenAI's models split it
// (o200k_base, cl100k_base, p50k_base, r50k_base), offline: the tables
// are embedded in the binary. A judged run counts every prompt and answer
// in o200k_base, from several goroutines at once, so that encoding is
// counted without the library's regular expression (o200k.go), and each
// encoding's tokenizer is built once.
package tokens

import (
	"fmt"
	"slices"
	"strings"
	"sync"
	"unicode/utf8"

	tiktoken "github.com/pkoukk/tiktoken-go"
	tiktokenloader "github.com/pkoukk/tiktoken-go-loader"
)

// Encodings are the encodings Count knows: the byte-pair
// encodings of OpenAI's models (o200k_base for GPT-4o and later,
// cl100k_base for GPT-4 and GPT-3.5, p50k_base and r50k_base for the
// older ones). Their tables, OpenAI's published files, are embedded in
// the binary (github.com/pkoukk/tiktoken-go with its offline loader), so
// counting never downloads anything and gives the same count on every
// machine. (github.com/tiktoken-go/tokenizer v0.10.0 was tried first: it
// splits "today\n \n" differently from OpenAI's tiktoken.)
var Encodings = []string{"o200k_base", "cl100k_base", "p50k_base", "r50k_base"}

var (
	codecs     sync.Map // encoding name → *codec
	loaderOnce sync.Once
)

// newEncoding builds an encoding's tokenizer (a test counts the builds).
var newEncoding = tiktoken.GetEncoding

// codec is an encoding's tokenizer, built once however many callers ask
// for it at the same time: building one sorts and indexes the whole
// table (a tenth of a second of CPU for o200k_base), and a judged run's
// first questions all count at once.
type codec struct {
	once sync.Once
	tk   *tiktoken.Tiktoken
	err  error
}

// Count counts the tokens of text in the named encoding, exactly as the
// model's tokenizer splits it (special-token text such as
// "<|endoftext|>" counts as ordinary text). It may be called from many
// goroutines at once.
func Count(text, encoding string) (int, error) {
	if encoding == "o200k_base" && utf8.ValidString(text) {
		return o200kCounter.count(text)
	}
	v, ok := codecs.Load(encoding)
	if !ok {
		if !slices.Contains(Encodings, encoding) {
			return 0, fmt.Errorf("no token encoding %q: use one of %s", encoding, strings.Join(Encodings, ", "))
		}
		v, _ = codecs.LoadOrStore(encoding, &codec{})
	}
	c := v.(*codec)
	c.once.Do(func() {
		// The package's default loader downloads the tables: point it at
		// the embedded ones before any encoding is asked for.
		loaderOnce.Do(func() { tiktoken.SetBpeLoader(tiktokenloader.NewOfflineLoader()) })
		if c.tk, c.err = newEncoding(encoding); c.err != nil {
			c.err = fmt.Errorf("token encoding %s: %w", encoding, c.err)
		}
	})
	if c.err != nil {
		return 0, c.err
	}
	return len(c.tk.EncodeOrdinary(text)), nil
}
