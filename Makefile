# The two commands a newcomer needs are `make demo` (spawn the example MCP
# server over stdio and score it, offline) and `make test` (everything CI
# runs).

GO ?= go

.PHONY: demo test testdeps vet build bench fuzz

demo:
	$(GO) run ./cmd/rubric score -- $(GO) run ./examples/servers/sloppy

build:
	$(GO) build -o rubric ./cmd/rubric

# testdeps installs what the tests read or run but do not ship, each
# pinned by a package-lock.json: the SARIF 2.1.0 JSON Schema (testdeps/),
# the published MCP servers the transport tests spawn (testdata/servers/,
# the versions captured in the corpus), the TypeScript SDK v2 that the
# MCP 2026-07-28 test servers are written with (testdata/modern/) and the
# MCP Inspector's CLI (testdeps/inspector/, a client nobody here wrote,
# for rubric mcp). npm ci deletes and rewrites node_modules, so each
# directory is installed again only when its lock file is newer than what
# npm last installed from it (node_modules/.package-lock.json).
NPM_DIRS = testdeps testdata/servers testdata/modern testdeps/inspector

testdeps: $(addsuffix /node_modules/.package-lock.json,$(NPM_DIRS))

%/node_modules/.package-lock.json: %/package-lock.json
	npm ci --prefix $* --ignore-scripts --no-audit --no-fund --loglevel=error

vet:
	@out=$$(gofmt -l .); if [ -n "$$out" ]; then echo "gofmt would change:"; echo "$$out"; exit 1; fi
	$(GO) vet ./...

# The race pass leaves two kinds of tests to a second pass without the
# race detector, so that each runs once:
# - the heavy tests (those that call heavytest.Later: pure computation
#   over the whole corpus or the example servers), which take minutes
#   under the race detector and have nothing to find there that the
#   smaller tests of the same code do not; TestGradableEdges runs in both:
#   its 300-tool case skips itself under -race. internal/heavytest checks
#   that HEAVY_TESTS names every heavy test;
# - cmd/rubric's transcripts, but for the few about concurrency inside
#   the rubric process (raceScripts in cmd/rubric/main_test.go): every
#   rubric, plugin and server a transcript starts is a race-built process,
#   which made them most of the race pass's time;
# - TestMCPHostile, whose 100 MB request skips itself under -race (mcp-go
#   decodes it several times: minutes there) and so runs in this pass.
HEAVY_TESTS = ^(TestGradableScansTheCorpus|TestGradableEdges|TestGradableCorpus|TestScoresWithTheTDQSRubric|TestCorpus|TestGradableTellsTheExampleServersApart|TestScripts|TestMCPHostile|TestPromptLayoutCaching)$$
HEAVY_PACKAGES = ./rubrics ./judges/heuristic ./cmd/rubric ./judges/openai

# go test's default limit of 10 minutes a package is a guard against a
# hang, not a budget: on a loaded 2-core machine a package's race-built
# tests have taken most of it, so the race pass guards at 25.
test: testdeps vet
	RUBRIC_REQUIRE_SERVERS=1 RUBRIC_HEAVY_TESTS=later RUBRIC_SCRIPTS=race $(GO) test -race -timeout 25m ./...
	RUBRIC_REQUIRE_SERVERS=1 RUBRIC_SCRIPTS=rest $(GO) test -timeout 25m -run '$(HEAVY_TESTS)' $(HEAVY_PACKAGES)

bench:
	bash bench/score-100k.sh

# go test minimizes every input that reaches new code for up to
# -fuzzminimizetime (a minute by default) before it fuzzes on: a report
# or a rubric is kilobytes and each call takes milliseconds, so the
# targets spent their 2 minutes minimizing (FuzzExplain: 8 executions,
# FuzzRead: 12k against 146k) unless the minimizing is bounded by a
# number of calls.
FUZZ = -fuzztime 2m -fuzzminimizetime 100x

fuzz:
	$(GO) test ./engine/surface -run '^$$' -fuzz '^FuzzParse$$' $(FUZZ)
	$(GO) test ./engine/surface -run '^$$' -fuzz '^FuzzDecodeSplit$$' $(FUZZ)
	$(GO) test ./engine/rubric -run '^$$' -fuzz '^FuzzLoad$$' $(FUZZ)
	$(GO) test ./engine/report -run '^$$' -fuzz '^FuzzRead$$' $(FUZZ)
	$(GO) test ./engine/lang -run '^$$' -fuzz '^FuzzSchemaErrors$$' $(FUZZ)
	$(GO) test ./engine/lang -run '^$$' -fuzz '^FuzzEval$$' $(FUZZ)
	$(GO) test ./engine/lang -run '^$$' -fuzz '^FuzzFromJSON$$' $(FUZZ)
	$(GO) test ./engine/explain -run '^$$' -fuzz '^FuzzExplain$$' $(FUZZ)
	$(GO) test ./engine/rubric -run '^$$' -fuzz '^FuzzFence$$' $(FUZZ)
	$(GO) test ./plugins/transports/stdio -run '^$$' -fuzz '^FuzzOutGuard$$' $(FUZZ)
	$(GO) test ./plugins/transports/mcpclient -run '^$$' -fuzz '^FuzzReadPage$$' $(FUZZ)
	$(GO) test ./engine/clientconfig -run '^$$' -fuzz '^FuzzParse$$' $(FUZZ)
	$(GO) test ./engine/clientconfig -run '^$$' -fuzz '^FuzzStripJSONC$$' $(FUZZ)
