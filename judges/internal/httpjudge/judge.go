package httpjudge

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"net/url"
	"strings"
	"sync/atomic"
	"time"

	"github.com/rubricmcp/rubric/engine/judge"
	"github.com/rubricmcp/rubric/judges/internal/judgeopt"
	"github.com/rubricmcp/rubric/judges/internal/scrub"
)

// API describes one hosted API to a Judge: what the judge is called, where
// the API is, which options it takes, how the key travels, and how to read
// the options that are the API's own.
type API struct {
	// Name and Version are the judge's, as its identity gives them.
	Name, Version string
	// DefaultBaseURL is used when the base_url option is not given.
	DefaultBaseURL string
	// DefaultKeyEnv is the variable the key is read from unless the
	// api_key_env option names another.
	DefaultKeyEnv string
	// Options are every option the judge accepts, the shared ones
	// (base_url, timeout, api_key_env) included.
	Options []string
	// Hosted says whether a base URL is the provider's own hosted API:
	// there the key is required, and the identity's provider is Name
	// rather than the URL's host.
	Hosted func(base *url.URL) bool
	// Path is appended to the base URL to make the endpoint's URL.
	Path string
	// Header is sent with every request, besides User-Agent and the key.
	Header http.Header
	// KeyHeader is the header the key is sent in, after KeyPrefix; it is
	// not sent when there is no key.
	KeyHeader, KeyPrefix string
	// Configure reads the API's own options (those besides base_url,
	// timeout and api_key_env) for a judge asking model, records in params
	// those that change the answers, and returns what the judge speaks
	// until it is configured again. It is called after base_url is read
	// and before timeout is, so that a bad option is reported in the order
	// the judge has always reported it.
	Configure func(o *judgeopt.Options, model string, params map[string]any) (Dialect, error)
	// Batch, when set, is the API's batch side: the judge then also
	// answers in batches (judge.Batcher), at the provider's batch price.
	Batch BatchAPI
}

// Dialect is what one configured judge says to its API and how it reads
// the replies. It is read by concurrent Asks and must not change.
type Dialect interface {
	// Request returns the body to post for question q, whose answer
	// schema is schema (valid JSON).
	Request(q judge.Question, schema json.RawMessage) any
	// Answer reads a successful reply: the answer, or a
	// *judge.UnreadableError (see Endpoint.Unreadable). An answer
	// without a model is given the one asked for.
	Answer(e *Endpoint, body []byte) (judge.Answer, error)
	// Failure reads an error reply (see Endpoint.Failure).
	Failure(e *Endpoint, r *Reply) Failure
}

// Endpoint is where a configured judge's requests go and what its
// messages name: settled by Configure, then only read.
type Endpoint struct {
	// Client posts the requests and words what went wrong.
	Client *Client
	// URL is the endpoint's URL: the base URL and the API's path.
	URL string
	// Header is sent with every request, the key included.
	Header http.Header
	// BaseURL is the base URL, without a trailing slash.
	BaseURL string
	// Model is the model asked for.
	Model string
	// KeyEnv is the variable the key was read from.
	KeyEnv string
	// KeySent says whether there was a key to send.
	KeySent bool
}

// Judge is what the hosted-API judges share: their configuration, their
// identity, and the shape of a question asked (post, read the failure or
// the answer). It is safe for concurrent use; Configure must come before
// Ask.
type Judge struct {
	api  *API
	http *http.Client
	now  func() time.Time // nil for time.Now
	cfg  atomic.Pointer[configured]
}

// configured is what Configure settles; Ask only reads it.
type configured struct {
	endpoint *Endpoint
	dialect  Dialect
}

// NewJudge returns an unconfigured judge for api.
func NewJudge(api *API) *Judge { return &Judge{api: api, http: NewHTTPClient()} }

// SetClock makes the judge read an HTTP-date Retry-After against now
// instead of time.Now, from its next Configure on: tests give it a fixed
// time so that the wait they check is exact however loaded the machine.
func (j *Judge) SetClock(now func() time.Time) { j.now = now }

// Describe returns the judge's identity before a model is chosen: its
// provider is its name.
func (j *Judge) Describe(context.Context) (judge.Identity, error) {
	return judge.Identity{Plugin: j.api.Name, Version: j.api.Version, Provider: j.api.Name}, nil
}

// CheckOptions implements judge.OptionChecker: the names of the API's
// options, not their values, which Configure reads.
func (j *Judge) CheckOptions(options map[string]string) error {
	_, err := judgeopt.NewOptions(j.api.Name, options, j.api.Options...)
	return err
}

// Configure checks the model and options, reads the key from the
// environment, and returns the identity the judge answers under: its
// provider is the judge's name for the hosted API, else the base URL's
// host, and its parameters are those the API's Configure recorded.
func (j *Judge) Configure(_ context.Context, c judge.Config) (judge.Identity, error) {
	api := j.api
	model := strings.TrimSpace(c.Model)
	if model == "" {
		return judge.Identity{}, &judge.SettingError{Judge: api.Name, Setting: "model", What: "a model", Value: "NAME",
			Advice: "pass --model NAME, or write model: NAME at the top level of rubric.yaml"}
	}
	o, err := judgeopt.NewOptions(api.Name, c.Options, api.Options...)
	if err != nil {
		return judge.Identity{}, err
	}
	base, err := o.BaseURL("base_url", api.DefaultBaseURL)
	if err != nil {
		return judge.Identity{}, err
	}
	hosted := api.Hosted(base)
	params := map[string]any{}
	dialect, err := api.Configure(o, model, params)
	if err != nil {
		return judge.Identity{}, err
	}
	timeout, err := o.Duration("timeout", DefaultTimeout)
	if err != nil {
		return judge.Identity{}, err
	}
	keyEnv, err := o.EnvName("api_key_env", api.DefaultKeyEnv)
	if err != nil {
		return judge.Identity{}, err
	}
	key, err := APIKey(api.Name, keyEnv, base.Host, hosted, o.Given("api_key_env"))
	if err != nil {
		return judge.Identity{}, err
	}
	header := http.Header{"User-Agent": {"rubric-judge-" + api.Name + "/" + api.Version}}
	for k, vs := range api.Header {
		header[k] = vs
	}
	if key != "" {
		header.Set(api.KeyHeader, api.KeyPrefix+key)
	}
	e := &Endpoint{
		Client:  &Client{Judge: api.Name, HTTP: j.http, Host: base.Host, Timeout: timeout, Secrets: secrets(api, header, key), Now: j.now},
		URL:     base.String() + api.Path,
		Header:  header,
		BaseURL: base.String(),
		Model:   model,
		KeyEnv:  keyEnv,
		KeySent: key != "",
	}
	provider := base.Host
	if hosted {
		provider = api.Name
	}
	id := judge.Identity{Plugin: api.Name, Version: api.Version, Provider: provider, Model: model}
	if len(params) > 0 {
		id.Params = params
	}
	j.cfg.Store(&configured{endpoint: e, dialect: dialect})
	return id, nil
}

// secrets are the values a judge holds that no answer or message may
// carry: the key, and every header value it sends beyond the API's fixed
// ones and the User-Agent (today that is the key's header, prefix and
// all).
func secrets(api *API, header http.Header, key string) []string {
	out := []string{key}
	for k, vs := range header {
		if k != "User-Agent" && api.Header.Get(k) == "" {
			out = append(out, vs...)
		}
	}
	return scrub.New(out...)
}

// Ask checks the question's answer schema, posts the dialect's request for
// it, and returns the answer the dialect reads from the reply, or the
// error a failure or a lost reply makes. Neither carries a secret the
// judge holds: an endpoint that echoes the key back (in the answer, the
// model's name or an error message) has it replaced by "[redacted]"
// before it leaves the judge for the report, the cache or a record.
func (j *Judge) Ask(ctx context.Context, q judge.Question) (judge.Answer, error) {
	a, err := j.ask(ctx, q)
	if c := j.cfg.Load(); c != nil {
		a, err = c.endpoint.Client.scrub(a, err)
	}
	return a, err
}

func (j *Judge) ask(ctx context.Context, q judge.Question) (judge.Answer, error) {
	c := j.cfg.Load()
	if c == nil {
		return judge.Answer{}, fmt.Errorf("the %s judge was asked a question before it was configured", j.api.Name)
	}
	schema := strings.TrimSpace(string(q.AnswerSchema))
	if !json.Valid([]byte(schema)) {
		return judge.Answer{}, fmt.Errorf("the question %s about %q has an answer schema that is not JSON", q.Kind, q.Subject)
	}
	e := c.endpoint
	r, err := e.Client.Post(ctx, e.URL, e.Header, c.dialect.Request(q, json.RawMessage(schema)))
	if err != nil {
		return judge.Answer{}, err
	}
	if !r.OK() {
		return judge.Answer{}, e.Client.Refused(c.dialect.Failure(e, r))
	}
	a, err := c.dialect.Answer(e, r.Body)
	if err != nil {
		return judge.Answer{}, err
	}
	if a.Model == "" {
		// A few servers leave the model out; the one asked for is then
		// the best account of who answered.
		a.Model = e.Model
	}
	return a, nil
}

// Unreadable words a successful reply the judge could not read, without
// secrets: the engine asks again.
func (e *Endpoint) Unreadable(format string, args ...any) error {
	return &judge.UnreadableError{Msg: e.Client.Redact(fmt.Sprintf(format, args...))}
}

// Failure reads an error reply into what Client.Refused words: nothing
// beyond the status for an empty body, the start of a body that decode
// cannot read as JSON, else the message and code decode finds; and the
// hint Hint gives for the status, which the caller may add to or replace.
func (e *Endpoint) Failure(r *Reply, decode func(body []byte) (msg, code string, ok bool)) Failure {
	f := Failure{Status: r.Status, Header: r.Header, Hint: e.Hint(r.Status)}
	if len(bytes.TrimSpace(r.Body)) == 0 {
		// An empty body says nothing beyond the status.
		return f
	}
	msg, code, ok := decode(r.Body)
	if !ok {
		f.Message = "the body is not JSON; it begins " + e.Client.Snippet(r.Body)
		return f
	}
	f.Message, f.Code = msg, code
	return f
}

// Hint is the next step after an error status that means the same at
// every provider: a request refused (400), a key missing or refused
// (401), a model or address not found (404). It is "" for any other.
func (e *Endpoint) Hint(status int) string {
	switch status {
	case http.StatusBadRequest:
		return "check the model (--model) and the judge's options (--judge-option)"
	case http.StatusUnauthorized:
		if e.KeySent {
			return "check the key in " + e.KeyEnv
		}
		return "the server wants a key: set " + e.KeyEnv + ", or name another variable with " + e.Client.setting("api_key_env", "NAME")
	case http.StatusNotFound:
		return fmt.Sprintf("check the model name %q (--model) and the base URL %s (%s)", e.Model, e.BaseURL, BaseURLSetting)
	}
	return ""
}
