package judgetest

import (
	"bytes"
	"context"
	"encoding/json"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"reflect"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/rubricmcp/rubric/engine/judge"
)

// Suite describes one hosted-API judge to the tests every such judge
// passes, and runs them against a fake provider: the cases that are the
// same for every provider (RunShared), and tables of the provider's own
// cases (RunAnswers, RunConfigure, RunErrorReplies, RunPlugin).
type Suite struct {
	// Name and Version are the judge's, as Describe gives them.
	Name, Version string
	// New returns an unconfigured judge.
	New func() judge.Judge
	// Model is the model the judge is configured with.
	Model string
	// KeyEnv is the variable the judge reads its key from by default.
	KeyEnv string
	// KeyHeader is the header the judge sends its key in.
	KeyHeader string
	// Key is the test key, which no error may show.
	Key string
	// Env is set before every configuration: the key, in the variable
	// the judge is told to read it from.
	Env map[string]string
	// Options are given in every configuration, besides base_url.
	Options map[string]string
	// Prefix is added to a server's URL to make the base URL ("/v1" for
	// a judge whose base URL names the API's version).
	Prefix string
	// Path is where the judge posts, on the server.
	Path string
	// Headers are what every request carries, "" for one it must not.
	Headers map[string]string
	// Reply names the fixture of a successful reply, and Answer is what
	// the judge makes of it.
	Reply  string
	Answer judge.Answer
	// Question is what the judge is asked.
	Question judge.Question
	// AnswerText is a string in the Reply's answer; Refusal names the
	// fixture of a 401 reply whose message holds RefusalText. The echo
	// test (SecretsNotEchoed) puts what the endpoint received in their
	// place, as the model's answer, its name and the provider's message.
	AnswerText, Refusal, RefusalText string
}

// Now is the time the judges under test read a clock at, where they let
// a test set their clock (see Clocked): an HTTP-date Retry-After written
// by HTTPDate then gives an exact wait, however long the request took.
var Now = time.Date(2026, 3, 1, 12, 0, 0, 0, time.UTC)

// HTTPDate is the HTTP date d after Now, for a Retry-After header.
func HTTPDate(d time.Duration) string { return Now.Add(d).Format(http.TimeFormat) }

// Clocked is a judge whose clock a test can set, as httpjudge.Judge's.
type Clocked interface {
	SetClock(now func() time.Time)
}

// newJudge returns an unconfigured judge reading its clock at Now.
func (s *Suite) newJudge() judge.Judge {
	j := s.New()
	if c, ok := j.(Clocked); ok {
		c.SetClock(func() time.Time { return Now })
	}
	return j
}

// Question returns the question the tests ask, with the given answer
// schema: how clear a tool's description is.
func Question(schema string) judge.Question {
	return judge.Question{
		Rubric:       "tdqs",
		Kind:         "tdqs.clarity",
		Subject:      "search_issues",
		System:       "You grade tool descriptions.",
		User:         "Tool: search_issues. Description: Searches.",
		AnswerSchema: []byte(schema),
	}
}

// config returns a configuration against server (a test server's URL,
// or any base URL without the Prefix) with the extra options, after
// setting the suite's environment.
func (s *Suite) config(t testing.TB, server string, extra map[string]string) judge.Config {
	t.Helper()
	for k, v := range s.Env {
		t.Setenv(k, v)
	}
	opts := map[string]string{"base_url": server + s.Prefix}
	for k, v := range s.Options {
		opts[k] = v
	}
	for k, v := range extra {
		opts[k] = v
	}
	return judge.Config{Model: s.Model, Options: opts}
}

// Configured returns a judge configured against server (a test server's
// URL, without the Prefix) with the suite's key and options and the extra
// ones.
func (s *Suite) Configured(t testing.TB, server string, extra map[string]string) judge.Judge {
	t.Helper()
	j := s.newJudge()
	if _, err := j.Configure(context.Background(), s.config(t, server, extra)); err != nil {
		t.Fatal(err)
	}
	return j
}

// Sent asks the suite's question, configured with the extra options,
// of a provider that gives the suite's Reply, and returns the request the
// judge sent, having checked what every request holds: a POST to Path,
// as JSON, with the suite's Headers and Model.
func (s *Suite) Sent(t *testing.T, extra map[string]string) Request {
	t.Helper()
	srv := Serve(t, 200, nil, Fixture(t, s.Reply))
	if _, err := s.Configured(t, srv.URL, extra).Ask(context.Background(), s.Question); err != nil {
		t.Fatal(err)
	}
	r := srv.Last(t)
	if r.Method != http.MethodPost || r.Path != s.Path {
		t.Errorf("sent %s %s", r.Method, r.Path)
	}
	want := map[string]string{"Content-Type": "application/json"}
	for k, v := range s.Headers {
		want[k] = v
	}
	for k, v := range want {
		if got := r.Header.Get(k); got != v {
			t.Errorf("header %s: %q, want %q", k, got, v)
		}
	}
	if body := r.JSON(t); body["model"] != s.Model {
		t.Errorf("model: %v", body["model"])
	}
	return r
}

// AnswerCase is a successful reply and the answer a judge must make of it.
type AnswerCase struct {
	// Fixture names the reply's file in testdata.
	Fixture string
	Want    judge.Answer
}

// RunAnswers checks the answer the judge makes of the suite's Reply and of
// each further case.
func (s *Suite) RunAnswers(t *testing.T, more ...AnswerCase) {
	for _, c := range append([]AnswerCase{{s.Reply, s.Answer}}, more...) {
		t.Run(c.Fixture, func(t *testing.T) {
			srv := Serve(t, 200, nil, Fixture(t, c.Fixture))
			got, err := s.Configured(t, srv.URL, nil).Ask(context.Background(), s.Question)
			if err != nil {
				t.Fatal(err)
			}
			if !reflect.DeepEqual(got, c.Want) {
				t.Errorf("got  %+v (%s)\nwant %+v (%s)", got, got.JSON, c.Want, c.Want.JSON)
			}
		})
	}
}

// ConfigureCase is a configuration and what the judge makes of it.
type ConfigureCase struct {
	Name  string
	Model string
	Opts  map[string]string
	// Env is set before the judge is configured.
	Env map[string]string
	// Want is the identity the judge answers under.
	Want judge.Identity
	// Err lists what the error says; nil for success.
	Err []string
}

// RunConfigure configures a new judge with each case (none of the suite's
// environment or options) and checks the identity or the error, which must
// not show the key.
func (s *Suite) RunConfigure(t *testing.T, cases []ConfigureCase) {
	for _, c := range cases {
		t.Run(c.Name, func(t *testing.T) {
			for k, v := range c.Env {
				t.Setenv(k, v)
			}
			id, err := s.New().Configure(context.Background(), judge.Config{Model: c.Model, Options: c.Opts})
			if c.Err == nil {
				if err != nil {
					t.Fatal(err)
				}
				if !reflect.DeepEqual(id, c.Want) {
					t.Errorf("identity %+v, want %+v", id, c.Want)
				}
				return
			}
			if err == nil {
				t.Fatalf("configured as %+v, want an error", id)
			}
			for _, want := range c.Err {
				if !strings.Contains(err.Error(), want) {
					t.Errorf("error %q does not say %q", err, want)
				}
			}
			if s.Key != "" && strings.Contains(err.Error(), s.Key) {
				t.Errorf("error %q shows the key", err)
			}
		})
	}
}

// ErrorCase is a reply a provider gives and the error a judge must make
// of it.
type ErrorCase struct {
	Name   string
	Status int
	Header http.Header
	Body   []byte
	// Kind is what the engine must do with the error.
	Kind Kind
	// Wait is the RetryAfter wanted, for a rate limit, exactly: an HTTP
	// date (HTTPDate) is read against the fixed clock Now.
	Wait time.Duration
	// Says lists what the error must say.
	Says []string
}

// check fails the test unless err is what c wants, and shows no key.
func (s *Suite) check(t *testing.T, c ErrorCase, err error) {
	t.Helper()
	if err == nil {
		t.Fatal("no error")
	}
	if got := KindOf(err); got != c.Kind {
		t.Fatalf("%v (%T) is %v, want %v", err, err, got, c.Kind)
	}
	if c.Kind == Wait {
		if got := RetryAfter(err); got != c.Wait {
			t.Errorf("RetryAfter %v, want %v", got, c.Wait)
		}
	}
	for _, say := range c.Says {
		if !strings.Contains(err.Error(), say) {
			t.Errorf("error %q does not say %q", err, say)
		}
	}
	if (s.Key != "" && strings.Contains(err.Error(), s.Key)) || strings.Contains(err.Error(), "****") {
		t.Errorf("error %q shows a key", err)
	}
}

// RunErrorReplies asks the suite's question, configured with the extra
// options, of a provider giving each case's reply, and checks the error.
func (s *Suite) RunErrorReplies(t *testing.T, extra map[string]string, cases []ErrorCase) {
	for _, c := range cases {
		t.Run(c.Name, func(t *testing.T) {
			srv := Serve(t, c.Status, c.Header, c.Body)
			_, err := s.Configured(t, srv.URL, extra).Ask(context.Background(), s.Question)
			s.check(t, c, err)
		})
	}
}

// RunPlugin serves the judge over go-plugin's gRPC, as the rubric binary
// does, and checks that the host gets its identity (configured with opts,
// with params wanted as they cross, as JSON), its answer to the suite's
// Reply, and then the error each case's reply makes, with its kind and
// wait intact.
func (s *Suite) RunPlugin(t *testing.T, opts map[string]string, params map[string]any, cases []ErrorCase) {
	srv := Serve(t, 200, nil, Fixture(t, s.Reply))
	host := Host(t, s.newJudge())
	ctx := context.Background()

	id, err := host.Configure(ctx, s.config(t, srv.URL, opts))
	if err != nil {
		t.Fatal(err)
	}
	want := judge.Identity{Plugin: s.Name, Version: s.Version, Provider: srv.Listener.Addr().String(), Model: s.Model, Params: params}
	if !reflect.DeepEqual(id, want) {
		t.Errorf("identity %+v, want %+v", id, want)
	}

	a, err := host.Ask(ctx, s.Question)
	if err != nil || !reflect.DeepEqual(a, s.Answer) {
		t.Errorf("answer %+v (%s), %v", a, a.JSON, err)
	}

	for _, c := range cases {
		t.Run(c.Name, func(t *testing.T) {
			srv.Answer(c.Status, c.Header, c.Body)
			_, err := host.Ask(ctx, s.Question)
			s.check(t, c, err)
		})
	}
}

// RunShared runs the cases that are the same for every hosted judge, each
// as a subtest: its description, a question asked too early or with a
// broken schema, concurrent questions, a server that needs no key and one
// that wants one after all, and the ways a reply can fail to arrive (too
// large, cancelled, too slow, dropped, refused, redirected).
func (s *Suite) RunShared(t *testing.T) {
	t.Run("Describe", s.describe)
	t.Run("AskBeforeConfigure", s.askBeforeConfigure)
	t.Run("SchemaNotJSON", s.schemaNotJSON)
	t.Run("ConcurrentAsks", s.concurrentAsks)
	t.Run("NoKeyNoneSent", s.noKeyNoneSent)
	t.Run("KeyWanted", s.keyWanted)
	t.Run("ReplyOverLimit", s.replyOverLimit)
	t.Run("CancelMidRequest", s.cancelMidRequest)
	t.Run("Timeout", s.timeout)
	t.Run("ConnectionDropped", s.connectionDropped)
	t.Run("ConnectionRefused", s.connectionRefused)
	t.Run("RedirectNotFollowed", s.redirectNotFollowed)
	t.Run("SecretsNotEchoed", s.secretsNotEchoed)
}

func (s *Suite) describe(t *testing.T) {
	id, err := s.New().Describe(context.Background())
	want := judge.Identity{Plugin: s.Name, Version: s.Version, Provider: s.Name}
	if err != nil || !reflect.DeepEqual(id, want) {
		t.Errorf("Describe: %+v, %v", id, err)
	}
}

func (s *Suite) askBeforeConfigure(t *testing.T) {
	if _, err := s.New().Ask(context.Background(), s.Question); err == nil || !strings.Contains(err.Error(), "before it was configured") {
		t.Errorf("Ask before Configure: %v", err)
	}
}

// schemaNotJSON: a question whose schema is broken, or missing, is sent
// nowhere.
func (s *Suite) schemaNotJSON(t *testing.T) {
	for _, schema := range []string{`{"type":`, ""} {
		srv := Serve(t, 200, nil, Fixture(t, s.Reply))
		q := s.Question
		q.AnswerSchema = []byte(schema)
		_, err := s.Configured(t, srv.URL, nil).Ask(context.Background(), q)
		if err == nil || !strings.Contains(err.Error(), "answer schema that is not JSON") {
			t.Errorf("schema %q: %v", schema, err)
		}
		if n := len(srv.Requests()); n != 0 {
			t.Errorf("%d requests were sent with schema %q", n, schema)
		}
	}
}

// concurrentAsks: the engine asks several questions at once.
func (s *Suite) concurrentAsks(t *testing.T) {
	srv := Serve(t, 200, nil, Fixture(t, s.Reply))
	j := s.Configured(t, srv.URL, map[string]string{"temperature": "0"})
	const n = 8
	var wg sync.WaitGroup
	errs := make(chan error, n)
	for range n {
		wg.Go(func() {
			a, err := j.Ask(context.Background(), s.Question)
			if err == nil && !reflect.DeepEqual(a, s.Answer) {
				err = &judge.UnreadableError{Msg: "wrong answer from " + a.Model}
			}
			errs <- err
		})
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		if err != nil {
			t.Error(err)
		}
	}
	if got := len(srv.Requests()); got != n {
		t.Errorf("the server got %d requests, want %d", got, n)
	}
}

// keyless returns a judge configured against server with nothing but the
// base URL, and no key in the variable it reads by default.
func (s *Suite) keyless(t *testing.T, server string) judge.Judge {
	t.Helper()
	t.Setenv(s.KeyEnv, "")
	j := s.New()
	if _, err := j.Configure(context.Background(), judge.Config{Model: s.Model, Options: map[string]string{"base_url": server + s.Prefix}}); err != nil {
		t.Fatal(err)
	}
	return j
}

// noKeyNoneSent: a base URL of the user's choosing that needs no key (a
// local server, a gateway) is sent none.
func (s *Suite) noKeyNoneSent(t *testing.T) {
	srv := Serve(t, 200, nil, Fixture(t, s.Reply))
	if _, err := s.keyless(t, srv.URL).Ask(context.Background(), s.Question); err != nil {
		t.Fatal(err)
	}
	if got := srv.Last(t).Header.Get(s.KeyHeader); got != "" {
		t.Errorf("sent %s %q", s.KeyHeader, got)
	}
}

// keyWanted: a server sent no key that answers 401 is told about the
// variable the key goes in.
func (s *Suite) keyWanted(t *testing.T) {
	srv := Serve(t, http.StatusUnauthorized, nil, nil)
	_, err := s.keyless(t, srv.URL).Ask(context.Background(), s.Question)
	if KindOf(err) != Stop || !strings.Contains(err.Error(), "401 Unauthorized; the server wants a key: set "+s.KeyEnv+", or name another variable with --judge-option api_key_env=NAME (or in --judge "+s.Name+":api_key_env=NAME)") {
		t.Errorf("a 401 without a key: %v (%T)", err, err)
	}
}

// replyOverLimit: a successful reply that would read well but for 16 MiB
// of trailing space is not read.
func (s *Suite) replyOverLimit(t *testing.T) {
	big := append(Fixture(t, s.Reply), bytes.Repeat([]byte(" "), 16<<20)...)
	srv := Serve(t, 200, nil, big)
	_, err := s.Configured(t, srv.URL, nil).Ask(context.Background(), s.Question)
	if KindOf(err) != AskAgain || !strings.Contains(err.Error(), "larger than 16 MiB") {
		t.Errorf("a reply over 16 MiB: %v", err)
	}
}

// cancelMidRequest: a question cancelled once the server has it ends at
// once. The request's own timeout is a day, so a judge that waited for it
// instead would hang the test (and go test's -timeout would say so)
// rather than pass late.
func (s *Suite) cancelMidRequest(t *testing.T) {
	started := make(chan struct{})
	srv := Hanging(t, started)
	j := s.Configured(t, srv.URL, map[string]string{"timeout": "24h"})
	ctx, cancel := context.WithCancel(context.Background())
	go func() {
		<-started
		cancel()
	}()
	_, err := j.Ask(ctx, s.Question)
	if KindOf(err) != Cancelled {
		t.Errorf("cancelled mid-request: %v (%T)", err, err)
	}
}

func (s *Suite) timeout(t *testing.T) {
	srv := Hanging(t, make(chan struct{}))
	_, err := s.Configured(t, srv.URL, map[string]string{"timeout": "100ms"}).Ask(context.Background(), s.Question)
	if KindOf(err) != Stop || !strings.Contains(err.Error(), "no reply within 100ms; if the model is slow, give it longer with --judge-option timeout=5m (or in --judge "+s.Name+":timeout=5m)") {
		t.Errorf("a server that never answers: %v (%T)", err, err)
	}
}

func (s *Suite) connectionDropped(t *testing.T) {
	srv := Dropping(t)
	_, err := s.Configured(t, srv.URL, nil).Ask(context.Background(), s.Question)
	if KindOf(err) != Wait || !strings.Contains(err.Error(), "connection") {
		t.Errorf("a dropped connection: %v (%T)", err, err)
	}
}

func (s *Suite) connectionRefused(t *testing.T) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	addr := ln.Addr().String()
	ln.Close()
	_, err = s.Configured(t, "http://"+addr, nil).Ask(context.Background(), s.Question)
	if KindOf(err) != Stop || !strings.Contains(err.Error(), "connection refused") || !strings.Contains(err.Error(), "is the server running, and is the base URL right? Check --base-url (or base_url=URL in --judge-option or in --judge NAME:base_url=URL)") {
		t.Errorf("nothing listening: %v (%T)", err, err)
	}
}

// redirectNotFollowed: a redirect is reported, not followed, so the key
// never reaches another host.
func (s *Suite) redirectNotFollowed(t *testing.T) {
	elsewhere := Serve(t, 200, nil, Fixture(t, s.Reply))
	srv := Serve(t, http.StatusTemporaryRedirect, http.Header{"Location": {elsewhere.URL + s.Path}}, nil)
	_, err := s.Configured(t, srv.URL, nil).Ask(context.Background(), s.Question)
	if KindOf(err) != Stop || !strings.Contains(err.Error(), "307 Temporary Redirect; it redirects to "+elsewhere.URL+s.Path) {
		t.Errorf("a redirect: %v (%T)", err, err)
	}
	if n := len(elsewhere.Requests()); n != 0 {
		t.Errorf("the redirect was followed (%d requests)", n)
	}
}

// echoKey is the key of the echo test: shaped like no provider's key, so
// that only the judge's knowing it can take it out.
const echoKey = "echoed-credential-7f3a9c"

// secretsNotEchoed: an endpoint that echoes every header it received (the
// key among them) in the answer, the model's name, an error message or a
// body that cannot be read has the key taken out before anything leaves
// the judge, and the answer stays valid JSON.
func (s *Suite) secretsNotEchoed(t *testing.T) {
	t.Setenv("RUBRIC_ECHO_KEY", echoKey)
	cases := []struct {
		name   string
		status int
		body   func(echo string) []byte
		kind   Kind
	}{
		{"in the answer and the model", 200, func(echo string) []byte {
			b := bytes.ReplaceAll(Fixture(t, s.Reply), []byte(s.AnswerText), []byte(echo))
			return bytes.ReplaceAll(b, []byte(s.Answer.Model), []byte(echo))
		}, -1},
		{"in a refusal", 401, func(echo string) []byte {
			return bytes.ReplaceAll(Fixture(t, s.Refusal), []byte(s.RefusalText), []byte(echo))
		}, Stop},
		{"in a rate limit", 429, func(echo string) []byte { return []byte("slow down, " + echo) }, Wait},
		{"in a gateway's page", 502, func(echo string) []byte { return []byte("<html>bad gateway for " + echo + "</html>") }, Wait},
		{"in a reply that cannot be read", 200, func(echo string) []byte { return []byte("Hello " + echo) }, AskAgain},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			var echoed atomic.Bool
			srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
				io.Copy(io.Discard, r.Body)
				var vals []string
				for _, vs := range r.Header {
					vals = append(vals, vs...)
				}
				slices.Sort(vals)
				echo := strings.Join(vals, " ")
				echoed.Store(strings.Contains(echo, echoKey))
				w.Header().Set("Content-Type", "application/json")
				w.WriteHeader(c.status)
				w.Write(c.body(echo))
			}))
			t.Cleanup(srv.Close)
			a, err := s.Configured(t, srv.URL, map[string]string{"api_key_env": "RUBRIC_ECHO_KEY"}).Ask(context.Background(), s.Question)
			if !echoed.Load() {
				t.Fatal("the judge sent no key to echo")
			}
			var out string
			if c.kind < 0 {
				if err != nil {
					t.Fatal(err)
				}
				if !json.Valid(a.JSON) {
					t.Errorf("the answer is no longer JSON: %s", a.JSON)
				}
				out = string(a.JSON) + " " + a.Model
			} else {
				if KindOf(err) != c.kind {
					t.Fatalf("%v (%T) is %v, want %v", err, err, KindOf(err), c.kind)
				}
				out = err.Error()
			}
			if strings.Contains(out, echoKey) {
				t.Errorf("the key came back: %s", out)
			}
			if !strings.Contains(out, "[redacted]") {
				t.Errorf("the echo did not come through redacted: %s", out)
			}
		})
	}
}
