// Package httpjudge holds what the hosted-API judges (judges/openai and
// judges/anthropic) share: the judge itself (Judge: the model, the shared
// options, read with judgeopt, the base URL, the key and the identity, and
// the shape of a question asked), around the API and Dialect each of them
// describes its provider with (its own options, its wire format, its error
// body); posting one JSON request with a per-request timeout and a bounded
// reply; and turning what went wrong into the errors the engine acts on. A
// rate limit, an overload or a dropped connection becomes a
// *judge.RateLimitError (wait, then ask again); a reply that cannot be read
// becomes a *judge.UnreadableError (ask again, within the question's
// retries); anything else is a plain error that ends the run and says what
// to do.
package httpjudge
