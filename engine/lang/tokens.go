package lang

import (
	"github.com/google/cel-go/cel"
	"github.com/google/cel-go/common/types"
	"github.com/google/cel-go/common/types/ref"

	"github.com/rubricmcp/rubric/internal/tokens"
)

// TokenEncodings are the encodings token_count knows (tokens.Encodings):
// the byte-pair encodings of OpenAI's models, their tables embedded in
// the binary, so that counting never downloads anything and gives the
// same count on every machine.
var TokenEncodings = tokens.Encodings

// CountTokens counts the tokens of text in the named encoding, exactly as
// the model's tokenizer splits it (tokens.Count).
func CountTokens(text, encoding string) (int, error) { return tokens.Count(text, encoding) }

// tokenCount is token_count(text, encoding) in a formula.
func tokenCount(text, encoding ref.Val) ref.Val {
	n, err := CountTokens(string(text.(types.String)), string(encoding.(types.String)))
	if err != nil {
		return types.NewErr("token_count: %v", err)
	}
	return types.Int(n)
}

// tokenCountFunction declares token_count; textLib carries it, so that its
// cost is charged like the other text functions' (by the length of the
// text it reads).
func tokenCountFunction() cel.EnvOption {
	return cel.Function("token_count", cel.Overload("token_count_string_string", []*cel.Type{cel.StringType, cel.StringType}, cel.IntType,
		cel.BinaryBinding(tokenCount)))
}
