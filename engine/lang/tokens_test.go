package lang

import (
	"crypto/sha256"
	"encoding/hex"
	"strings"
	"testing"

	"github.com/pkoukk/tiktoken-go-loader/assets"

	"github.com/rubricmcp/rubric/internal/heavytest"
)

// TestCountTokensReference checks token_count against counts published
// by others, so that a wrong table or a broken merge loop fails here. The
// source of each count is given with its case:
//
//   - tiktoken: openai/tiktoken's own tests (tests/test_encoding.py and
//     tests/test_base_encodings.py), which list the token ids a string
//     encodes to; the count is the length of that list.
//   - port: the Go port's own tests (tiktoken-go/tokenizer v0.10.0,
//     tokenizer_test.go), the only published o200k_base ids found.
//
// It loads all four tables, each hundreds of thousands of merges: 49 s
// of a busy machine under the race detector, which has nothing to find
// in one goroutine's table, so make test runs it in its pass without
// -race.
func TestCountTokensReference(t *testing.T) {
	heavytest.Later(t)
	cases := []struct {
		encoding, text string
		want           int
		source         string
	}{
		// tiktoken test_simple / test_basic_encode: [31373, 995] and
		// [15339, 1917].
		{"r50k_base", "hello world", 2, "tiktoken"},
		{"p50k_base", "hello world", 2, "tiktoken"},
		{"cl100k_base", "hello world", 2, "tiktoken"},
		// test_simple_regex: [38149], [2351, 81], [31213, 198, 220],
		// [31213, 27907].
		{"cl100k_base", "rer", 1, "tiktoken"},
		{"cl100k_base", "'rer", 2, "tiktoken"},
		{"cl100k_base", "today\n ", 3, "tiktoken"},
		{"cl100k_base", "today\n \n", 2, "tiktoken"},
		// test_basic_encode: " \x850" is [220, 126, 227, 15].
		{"cl100k_base", " \u00850", 4, "tiktoken"},
		// test_encode_surrogate_pairs: the thumbs-up emoji is [9468, 239, 235].
		{"cl100k_base", "👍", 3, "tiktoken"},
		// test_simple_repeated (gpt2, whose table r50k_base shares): "0" is
		// [15], eight zeros [8269], nine [10535, 830], sixteen [25645],
		// seventeen [8269, 10535, 830].
		{"r50k_base", "0", 1, "tiktoken"},
		{"r50k_base", "00000000", 1, "tiktoken"},
		{"r50k_base", "000000000", 2, "tiktoken"},
		{"r50k_base", strings.Repeat("0", 16), 1, "tiktoken"},
		{"r50k_base", strings.Repeat("0", 17), 3, "tiktoken"},
		// test_base_encodings cl100k_test_data: "Hello world!" is [9906,
		// 1917, 0]; "こんにちは世界" [90115, 3574, 244, 98220]; "This is a
		// sentence without spaces." 7 ids; "What about URLs?
		// https://www.google.com" 9 ids; "How about numbers? 123 45.6
		// -78.9" 14 ids; "Unicode snowman: ☃️" 7 ids.
		{"cl100k_base", "Hello world!", 3, "tiktoken"},
		{"cl100k_base", "こんにちは世界", 4, "tiktoken"},
		{"cl100k_base", "This is a sentence without spaces.", 7, "tiktoken"},
		{"cl100k_base", "What about URLs? https://www.google.com", 9, "tiktoken"},
		{"cl100k_base", "How about numbers? 123 45.6 -78.9", 14, "tiktoken"},
		{"cl100k_base", "Unicode snowman: ☃️", 7, "tiktoken"},
		// The same file's r50k/p50k data: "print('Hello, world!')" is
		// [4798, 10786, 15496, 11, 995, 0, 11537].
		{"r50k_base", "print('Hello, world!')", 7, "tiktoken"},
		{"p50k_base", "print('Hello, world!')", 7, "tiktoken"},
		// The port's TestO200kBase: "hello world" [24912, 2375], "hello
		// world" with three spaces [24912, 256, 2375],
		// "supercalifragilistic" 6 ids, and the Shakespeare line 14 ids.
		{"o200k_base", "hello world", 2, "port"},
		{"o200k_base", "hello   world", 3, "port"},
		{"o200k_base", "supercalifragilistic", 6, "port"},
		{"o200k_base", "We know what we are, but know not what we may be.", 14, "port"},
		// And for p50k_base, whose runs of spaces are single tokens where
		// r50k_base splits them: [31373, 50257, 995] against [31373, 220,
		// 220, 995].
		{"p50k_base", "hello   world", 3, "port"},
		{"r50k_base", "hello   world", 4, "port"},
		{"cl100k_base", "", 0, "tiktoken (test_encode_empty)"},
	}
	for _, c := range cases {
		got, err := CountTokens(c.text, c.encoding)
		if err != nil || got != c.want {
			t.Errorf("%s %q: %d, %v; want %d (%s)", c.encoding, c.text, got, err, c.want, c.source)
		}
	}
}

// TestCountTokensOwn pins counts of strings like those rubrics count (a
// tool's canonical JSON, a description), which no one published: they
// are this tokenizer's own counts, read token by token (the pieces are
// in the comments) and found plausible, so that a change of library or
// table that moves them is seen.
func TestCountTokensOwn(t *testing.T) {
	cases := []struct {
		encoding, text string
		want           int
	}{
		// {" name ":" get _book mark "}: 7 tokens in both encodings.
		{"o200k_base", `{"name":"get_bookmark"}`, 7},
		{"cl100k_base", `{"name":"get_bookmark"}`, 7},
		// Delete| one| bookmark| by| id|,| permanently|.
		{"o200k_base", "Delete one bookmark by id, permanently.", 8},
		// Special-token text is ordinary text: <|endoftext|> is not the
		// one token 199999 but seven: < | end of text | >.
		{"o200k_base", "<|endoftext|>", 7},
	}
	for _, c := range cases {
		got, err := CountTokens(c.text, c.encoding)
		if err != nil || got != c.want {
			t.Errorf("%s %q: %d, %v; want %d", c.encoding, c.text, got, err, c.want)
		}
	}
}

// TestTokenTablesArePublished hashes the embedded tables: each must be
// the file OpenAI publishes, whose sha256 tiktoken itself checks on
// download (expected_hash in tiktoken_ext/openai_public.py).
func TestTokenTablesArePublished(t *testing.T) {
	want := map[string]string{
		"o200k_base":  "446a9538cb6c348e3516120d7c08b09f57c36495e2acfffe59a5bf8b0cfb1a2d",
		"cl100k_base": "223921b76ee99bde995b7ff738513eef100fb51d18c93597a113bcffe865b2a7",
		"p50k_base":   "94b5ca7dff4d00767bc256fdd1b27e5b17361d7b8a5f968547f9f23eb70d2069",
		"r50k_base":   "306cd27f03c1a714eca7108e03d66b7dc042abe8c258b44c199a7ed9838dd930",
	}
	for _, enc := range TokenEncodings {
		b, err := assets.Assets.ReadFile(enc + ".tiktoken")
		if err != nil {
			t.Fatalf("%s: %v", enc, err)
		}
		sum := sha256.Sum256(b)
		if got := hex.EncodeToString(sum[:]); got != want[enc] {
			t.Errorf("%s table sha256 %s, want %s", enc, got, want[enc])
		}
	}
}

func TestCountTokensUnknownEncoding(t *testing.T) {
	_, err := CountTokens("x", "gpt2_base")
	if err == nil || !strings.Contains(err.Error(), "o200k_base") {
		t.Errorf("unknown encoding: %v, want an error naming the encodings", err)
	}
}
