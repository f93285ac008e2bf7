# The two commands a newcomer needs are `make demo` (spawn the example MCP
# server over stdio and score it, offline) and `make test` (everything CI
# runs).

GO ?= go

.PHONY: demo test test-passes test-race test-heavy test-plain testdeps vet build bench fuzz release-snapshot npm-check actionlint staticcheck

demo:
	$(GO) run ./cmd/rubric score -- $(GO) run ./examples/servers/sloppy

# build makes rubric and, beside it, rubric-transport-file, the file
# transport's own small binary, which rubric starts to read a surface
# file instead of starting itself again (plugins/host: a companion).
build:
	$(GO) build -o rubric ./cmd/rubric
	$(GO) build -o rubric-transport-file ./cmd/rubric-transport-file

# testdeps installs what the tests read or run but do not ship, each
# pinned by a package-lock.json: the SARIF 2.1.0 JSON Schema, the
# Jenkins JUnit XML schema and axe-core, which the HTML report's browser
# tests inject into the page (testdeps/), the SARIF validator
# (testdeps/sarif-multitool/),
# the published MCP servers the transport tests spawn (testdata/servers/,
# the versions captured in the corpus), the TypeScript SDK v2 that the
# MCP 2026-07-28 test servers are written with (testdata/modern/) and the
# MCP Inspector's CLI (testdeps/inspector/, a client nobody here wrote,
# for rubric mcp). npm ci deletes and rewrites node_modules, so each
# directory is installed again only when its lock file is newer than what
# npm last installed from it (node_modules/.package-lock.json). A fresh
# clone installs all five, or copies those a clone with the same lock
# installed before (scripts/npm-ci.sh keeps each install in a cache keyed
# by its lock, as Go's build cache keeps the packages the tests compile;
# RUBRIC_NPM_CACHE=off turns it off): --prefer-offline takes what npm's
# cache holds without asking the registry whether it is still current
# (the lock file pins each package by its hash), and make test installs
# them side by side and beside vet.
NPM_DIRS = testdeps testdata/servers testdata/modern testdeps/inspector
# Microsoft's SARIF validator (testdeps/sarif-multitool/) is a 96 MB
# self-contained binary; its package's one install script (chmod u+x) is
# run here, as every install runs with --ignore-scripts.
MULTITOOL = testdeps/sarif-multitool/node_modules/.package-lock.json

testdeps: $(addsuffix /node_modules/.package-lock.json,$(NPM_DIRS)) $(MULTITOOL)

%/node_modules/.package-lock.json: %/package-lock.json
	scripts/npm-ci.sh $*

$(MULTITOOL): testdeps/sarif-multitool/package-lock.json
	scripts/npm-ci.sh testdeps/sarif-multitool '@microsoft/sarif-multitool-*/Sarif.Multitool'

vet:
	@out=$$(gofmt -l .); if [ -n "$$out" ]; then echo "gofmt would change:"; echo "$$out"; exit 1; fi
	$(NOCGO) $(GO) vet -trimpath ./...

# make test runs three passes at once, so that neither core idles while
# another pass finishes a long package:
# - the plain pass, without -race, which runs every test of the packages
#   NORACE_PACKAGES names: those in whose test binary nothing runs at
#   once (no goroutine, channel or select in the package, in its tests
#   or in a package without tests of its own that they import; no
#   parallel test, no httptest server, no sync in the tests), where the
#   race detector, which finds two goroutines touching the same memory,
#   has nothing to find, and which it only slowed (engine/lang, while it was one: 10.7
#   CPU-s race-built). A mutex alone does not make a package concurrent:
#   it guards against callers that run at once, whose race-built tests
#   check it. internal/heavytest holds the list to the rule;
# - the race pass: every other package under -race, but for the tests
#   it leaves to the heavy pass;
# - the heavy pass, without -race, which runs each test HEAVY_TESTS names
#   in HEAVY_PACKAGES:
#   - the tests that call heavytest.Later: pure computation (whole
#     corpora, formulas driven into their cost and size limits, token
#     tables, a 16 MiB prompt, whole rubrics loaded again and again for
#     their digests, the cost estimate held to the tracker's charge on
#     data at its bound, the heuristic's agreement table), end to end
#     runs of rubric, its plugins and real servers as processes, or the
#     HTML report in a browser, which take minutes under the race
#     detector and have nothing to find there that the smaller tests of
#     the same code, which stay in the race pass, do not.
#     internal/heavytest checks that HEAVY_TESTS and HEAVY_PACKAGES name
#     every one. Pattern matching is dearest there: under -race,
#     sync.Pool drops one in four of the values put back, and regexp's
#     backtracker then makes its 32 KB state afresh (33 GB allocated by
#     TestTallyEachInEstimateBoundsItsCharge, 0.5 s without -race and
#     45 race-built, alone on the machine);
#   - cmd/rubric's transcripts, but for the few about concurrency inside
#     the rubric process (raceScripts in cmd/rubric/main_test.go), which
#     stay in the race pass;
#   - TestGradableEdges, whose 300-tool case skips itself under -race,
#     runs in both passes;
#   - the tests that count allocations only without -race, whose
#     sync.Pool drops values at random (TestAppendGrowsOnce, and those of
#     engine/lang and engine/score/stage), and check the rest in both
#     passes. internal/heavytest checks that every test of the race pass
#     that reads race.Enabled is named here.
#   - tests that repeat, larger, what smaller race-built tests of the
#     same code check: TestBuildInfo (every built-in rubric loaded for
#     its digest, in sequence), TestJudgedQuestionsCarryOnlyTheirOwn and
#     TestTasksPerToolIsConfigurable (whole rubrics through the engine's
#     concurrent asker, with 10 and 40 tools and twice over tidy, as
#     TestFixListGolden, TestTDQSReplay, TestGradableReplay and
#     TestGradableEdges's small cases do race-built): with engine/scan's
#     TestBrowserLeaderboard, which has since gone back (below), the
#     four took 7.2 CPU-s race-built and 2.6 here (go test -run of the
#     four less -run '^$', twice each, load 25), and rubrics is linked
#     for this pass anyway.
#   A package of NORACE_PACKAGES runs its heavy tests in the plain pass,
#   with the rest of its tests, so that its test binary is linked once.
#   A package whose one heavy test costs less race-built than a second
#   link of its test binary is not here: engine/scan's
#   TestBrowserLeaderboard (a page in Chromium, whose CPU the race
#   detector does not touch: 1.90 CPU-s race-built against 1.66, the
#   median of three alternated runs under bench/reap each) and
#   plugins/sdk's TestExamplePlugins (two example plugins started and
#   asked: 0.67 against 0.59) run in the race pass, which spares the
#   links of their packages without -race (2.4 and 1.3 CPU-s).
HEAVY_TESTS = \
	TestGradableScansTheCorpus \
	TestGradableEdges \
	TestGradableCorpus \
	TestScoresWithTheTDQSRubric \
	TestCorpus \
	TestGradableTellsTheExampleServersApart \
	TestScripts \
	TestTextFunctionsAreCharged \
	TestListFunctionsAreCharged \
	TestFormulasCannotBuildHugeValues \
	TestCostLimitStopsRunawayFormula \
	TestMarshalCanonicalAsEncodingJSON \
	TestExactFormulas \
	TestNativeRefusesValuesPastTheBound \
	TestReadStopsAtTheLimit \
	TestSchemaAcceptsReports \
	TestCostLimitCoversSurfaceAndAnswers \
	TestRunawayFormulaIsStopped \
	TestMetricsRaiseTheSizeBound \
	TestItemsRaiseTheSizeBound \
	TestCorpusGolden \
	TestLeanSurfaceScoresAsParsed \
	TestInventedArgumentsValidate \
	TestTaskTextNeverNamesTool \
	TestPatternDoesNotLowerTheGrade \
	TestToolSafetyCorpus \
	TestToolSafetyLargeTool \
	TestNames \
	TestFixListOrder \
	TestExportLargeDocument \
	TestMCPServe \
	TestMCPInspector \
	TestPublishedServerOverHTTP \
	TestPublishedServersOverStdio \
	TestExampleServerOverHTTP \
	TestMCPGradesItself \
	TestCommittedCalibrationHolds \
	TestMCPScoredOverHTTP \
	TestSecrets \
	TestGitHubAccepts \
	TestAction \
	TestPromptLayoutCaching \
	TestAppendGrowsOnce \
	TestScanPublishedServers \
	TestPromptsPastTheDefaultBound \
	TestCountTokensReference \
	TestO200kAsTiktoken \
	TestBrowserNumbersAreTheReports \
	TestBrowserSortAndFilter \
	TestBrowserHostileNames \
	TestBrowserAccessibility \
	TestBrowserScreenshots \
	TestBrowserLazyCards \
	TestBrowserGateAndCalibration \
	TestBrowserPhoneTablesFit \
	TestDigest \
	TestQuestionDigests \
	TestGateDigest \
	TestBuildInfo \
	TestJudgedQuestionsCarryOnlyTheirOwn \
	TestTasksPerToolIsConfigurable \
	TestDecodeJSONMatchesEncodingJSON \
	TestTemplateInputIsTheDecodedJSON \
	TestToolsCutToMembersScoreAsWhole \
	TestDecodeToolInputAgreesWithEncodingJSON \
	TestDecodeCoherenceInputAgreesWithEncodingJSON \
	TestContextsAgreeWithFields \
	TestToolLinesAsEncodingJSON \
	TestLazyCardsAreTheWholeCards \
	TestSelectionInputsAsMarshal \
	TestTDQSPastTheChecksLead \
	TestBoundedRangesKeepTheirBound \
	TestToolSafetyWideToolUntracked \
	TestDataEstimateCountsWhatCelMisses \
	TestWideDataStaysTracked \
	TestDataEstimateBoundsRandomFormulas \
	TestSplitEstimatedWithItsLastPiece \
	TestWideDataEstimatedOnItsPaths \
	TestTallyEachInEstimateBoundsItsCharge \
	TestDynListArgumentsEstimateBoundTheirCharge \
	TestLengthKeepingCallsKeepTheirBound \
	TestDataEstimateBoundsItsCharge \
	TestDecodeCheckedBuiltins \
	TestSchemaErrorsTooLarge \
	TestFindAllFilterNeverLosesAMatch \
	TestDynConcatenationsSizedAsTheirSum \
	TestRewriteGrowthBound \
	TestNumbersEstimatedOnTheData \
	TestFractionDenominatorsBounded \
	TestNumberFunctionsSizedByTheirDigits \
	TestSquaredNumbersSizedByTheirDigits \
	TestFormulasBoundedByWhatTheyRead \
	TestCostLimitExplainedOnce \
	TestHostileBoundsReadForms \
	TestHostileBoundsAnswers \
	TestToolSafetyCountsEveryMatch \
	TestToolSafetyCountsEveryOtherMatch \
	TestToolSafetyLabelledTallyFindsAlike \
	TestAgreementTable \
	TestSHA256Hex \
	TestFindFoldedASCII \
	TestFloatsAsEncodingJSON \
	TestConstantFormulasAreComputedOnce \
	TestCanonicalJSONCopiesNoBuiltMap \
	TestCanonicalJSONBoxesNoLeaf \
	TestRequestInputIsNotCopied \
	TestRequestWritesTheTemplateInput

# HEAVY_PACKAGES is in the order the heavy pass starts them, the longest
# first (make test on a quiet machine, a558359: engine/report/html 99 s,
# cmd/rubric 87, internal/ghaction 29, engine/report/sarif 20, engine/scan
# 18, engine/score 15, judges/heuristic 13, judges/openai 11, the rest 5
# or less), so that no long package starts last and runs alone at the end.
# engine/lang and rubrics have grown since (74 and 49 CPU-s without
# -race at 9cc7323e, engine/lang's in one test binary, one test at a
# time): started eleventh, engine/lang ran alone for the last 30 s of
# make test; started third, it ends with the race pass
# (bench/suite-runs.sh, 377.6 s against 330.0 s, on 657 and 598 CPU-s).
# Those in NORACE_PACKAGES run in the plain pass.
HEAVY_PACKAGES = \
	./engine/report/html \
	./cmd/rubric \
	./engine/lang \
	./rubrics \
	./internal/ghaction \
	./engine/report/sarif \
	./engine/score \
	./judges/heuristic \
	./judges/openai \
	./engine/ask \
	./plugins/host \
	./engine/score/stage \
	./engine/report \
	./engine/rubric \
	./internal/jsonstr \
	./internal/tokens \
	./judges/heuristic/internal/lex

NORACE_PACKAGES = \
	./bench/celtracker \
	./engine/cache \
	./engine/calibrate \
	./engine/calibrate/plot \
	./engine/clientconfig \
	./engine/contract \
	./engine/explain \
	./engine/judge \
	./engine/judge/panel \
	./engine/lock \
	./engine/num \
	./engine/rank \
	./engine/report/badge \
	./engine/report/gitlab \
	./engine/report/junit \
	./engine/report/markdown \
	./engine/report/serverset \
	./engine/report/text \
	./engine/report/writers \
	./engine/rubric \
	./engine/rubric/outline \
	./engine/score/eval \
	./engine/transport \
	./examples/servers/internal/store \
	./internal/archtest \
	./internal/buildinfo \
	./internal/columns \
	./internal/cpuprofile \
	./internal/cputime \
	./internal/deadline \
	./internal/gitrev \
	./internal/heavytest \
	./internal/hugepages \
	./internal/jsonenc \
	./internal/jsonpointer \
	./internal/jsonpos \
	./internal/jsonscan \
	./internal/jsonstr \
	./internal/linediff \
	./internal/localconfig \
	./internal/nearest \
	./internal/piddir \
	./internal/prestart \
	./internal/procgroup \
	./internal/readmetest \
	./internal/schemasize \
	./internal/redact \
	./internal/rubrictest \
	./internal/sandbox \
	./internal/scratch \
	./internal/splitmix \
	./internal/termtext \
	./internal/words \
	./judges/heuristic/internal/lex \
	./judges/heuristic/internal/tdqs \
	./judges/internal/httpjudge \
	./judges/internal/judgeopt \
	./judges/internal/scrub \
	./judges/replay \
	./plugins/transports/file \
	./plugins/transports/registry \
	./rubrics/internal/precompile

# RACE_PACKAGES is every package of the module but NORACE_PACKAGES,
# RACE_FIRST first: the race pass's longest (make test on a quiet
# machine, a558359: cmd/rubric 41 s, internal/jobqueue 33, engine/ask 25,
# engine/gate 15, engine/surface 11, the rest 9 or less), so that none
# starts last and runs alone at the end, as internal/jobqueue, in the
# middle of go list's order, did once the heavy pass got shorter.
MODULE = github.com/rubricmcp/rubric
RACE_FIRST = \
	./cmd/rubric \
	./internal/jobqueue \
	./engine/ask \
	./engine/gate \
	./engine/surface \
	./plugins/transports/stdio \
	./engine/score \
	./rubrics \
	./engine/run
RACE_PACKAGES = $(RACE_FIRST) $(filter-out $(NORACE_PACKAGES) $(RACE_FIRST),$(patsubst $(MODULE)/%,./%,$(shell $(GO) list ./...)))

empty :=
space := $(empty) $(empty)
HEAVY_RUN = ^($(subst $(space),|,$(strip $(HEAVY_TESTS))))$$

# go test's default limit of 10 minutes a package is a guard against a
# hang, not a budget: on a loaded 2-core machine a package's race-built
# tests have taken most of it, so both passes guard at 25.
# The job queue's tests need a Postgres: make test starts a throwaway one
# (scripts/pg-test.sh, from Debian's postgresql package) unless
# RUBRIC_TEST_POSTGRES already names one.
#
# vet and the passes start beside testdeps: a fresh clone's npm installs
# took 22 s of wall time and about one core (make -j6 testdeps vet, load
# 8), in which the passes now compile and link their test binaries. Each
# test binary is started through scripts/testdeps-gate.sh (go test
# -exec), which holds it, if its package is one of TESTDEPS_PACKAGES,
# until testdeps has ended (a lock, not a clock).
test:
	@scripts/testdeps-gate.sh run $(MAKE) $(MAKE) --no-print-directory -j4 vet test-passes

test-passes:
	@if [ -n "$$RUBRIC_TEST_POSTGRES" ]; then \
		$(MAKE) --no-print-directory -j3 test-race test-heavy test-plain; \
	else \
		scripts/pg-test.sh $(MAKE) --no-print-directory -j3 test-race test-heavy test-plain; \
	fi

# The passes link about a hundred test binaries, the race pass's with
# the race runtime: without the symbol table and DWARF (-s -w), which
# nothing reads from a test binary (a panic's trace and a race report
# come from the runtime's own tables), a link costs a fifth to a quarter
# less (engine/report/html's race test binary: 6.0 -> 4.3 CPU-s).
#
# Both passes and vet build with -trimpath: without it a package's
# folder is part of its key in Go's build cache, so a second clone or
# worktree of the repository (a CI checkout, a git worktree) compiled
# every package of the module again, three times (vet, the race pass,
# the other pass); with it they share what any checkout compiled. No
# test reads its own source path (reporttest finds the module by walking
# up from the working directory). Since the test binaries of two
# checkouts are then the same, -count=1 keeps go test from reusing a
# result another checkout recorded: make test runs every test, as CI
# does (go test alone still caches while you work).
#
# -vet=off: go test vets each package it tests (a few of vet's checks)
# before it runs, in each pass again, while make test runs the whole of
# go vet ./... (every check, test files included) beside the passes, and
# fails if it finds anything. Go caches a package's vet result, so with a warm cache this
# saves little (the plain pass's 58 packages built, linked and started
# with -run '^$', alternated three times, load 6: 53.6, 52.9 and 50.5
# CPU-s against 50.6, 55.0 and 49.7); it saves vetting each package
# changed since the cache was filled again in each pass.
TEST_FLAGS = -count=1 -vet=off -trimpath -ldflags='-s -w' $(TESTDEPS_GATE)

# Under make test, the test binaries of TESTDEPS_PACKAGES wait for
# testdeps (see test); the others start at once.
TESTDEPS_GATE = $(if $(RUBRIC_TESTDEPS_GATE),-exec '$(CURDIR)/scripts/testdeps-gate.sh exec $(subst $(space),$(comma),$(strip $(TESTDEPS_PACKAGES)))')
comma := ,

# TESTDEPS_PACKAGES are the packages whose tests read what make testdeps
# installs (the npm packages of NPM_DIRS, the SARIF validator), directly
# or through a test helper (engine/report/reporttest, internal/modernmcp);
# internal/heavytest holds the list to that rule (TestMakefileTestdepsRule).
# Under make test only their test binaries wait at the gate: while they
# all did, each pass's -p slots were held by binaries waiting, and a
# fresh clone ran no test until the npm installs had ended (bench/README.md,
# issue 13's sixth round).
TESTDEPS_PACKAGES = \
	./cmd/rubric \
	./engine/explain \
	./engine/report \
	./engine/report/badge \
	./engine/report/gitlab \
	./engine/report/html \
	./engine/report/junit \
	./engine/report/markdown \
	./engine/report/sarif \
	./engine/report/serverset \
	./engine/report/text \
	./engine/report/writers \
	./internal/heavytest \
	./judges/heuristic \
	./plugins/transports/mcphttp \
	./plugins/transports/stdio

# vet and the passes without -race build with cgo off, as the release
# does (.goreleaser.yaml): no package of the module has a cgo file, and
# with cgo off the standard library's net and os/user take their Go
# paths, so each binary a test builds and starts (rubric, its companion,
# the example servers and plugins) is static and starts without the
# dynamic loader; the race detector needs cgo, so the race pass keeps
# it. vet reads the packages the two passes compile, so it builds with
# cgo off too: make test compiles the module two ways (race, cgo off),
# not three. bench/suite-cpu.sh on be866c9 and on this, run at once
# (load 28-39), with the four tests moved to HEAVY_TESTS (TestBuildInfo
# and the three after it): heavy 211.6 -> 208.3
# CPU-s though the moved tests add 2 to it, plain 43.0 -> 41.4, so about
# 0.97x; the race pass, which keeps cgo, 121.6 -> 114.8 by the move.
NOCGO = CGO_ENABLED=0

# go test runs as many test binaries at once as -p says, GOMAXPROCS (2
# here) unless told. The heavy pass's long packages mostly wait: the
# browser tests on Chromium, one step at a time (engine/report/html: 28
# CPU-s in 99 s on a quiet machine), cmd/rubric on the processes its
# transcripts start, internal/ghaction on its runs of action.yml. Two at
# a time, the pass's packages ran one after another in two lines of
# about 140 s each, the longest pole of make test, while the machine had
# CPU to spare; four at a time they overlap, and what bounds the pass is
# the CPU it needs. The race pass waits too (internal/jobqueue on
# Postgres: 8 CPU-s in 33 s), so it runs three.
HEAVY_P = 4
RACE_P = 3

# The passes run with GOGC=400: a test binary, and each rubric, plugin
# and server process it starts, lives seconds, so most of the collector's
# work is done for a heap the exit frees anyway. The heavy tests of
# rubrics, engine/score and judges/heuristic took 16.3 CPU-s at 400
# against 18.7 at Go's default of 100 (medians of three alternated runs);
# their peak heap is a few hundred MiB at most. A test that sets the
# percentage itself keeps its own; a plugin that asks for one
# (plugins/sdk) gets GOGC's instead, as under any GOGC a user sets.
TEST_GOGC = 400
test-race test-heavy test-plain: export GOGC = $(TEST_GOGC)

# The race runtime sleeps a second before a race-built process exits, so
# that goroutines still running can report a race: the race pass's 57
# test binaries slept a minute of its slots' time that way. A race
# during a test fails that test as it happens; what the sleep would add
# is a report from a goroutine a test left behind, and the processes the
# tests start (rubric, its plugins) already run without it.
test-race:
	GORACE=atexit_sleep_ms=0 RUBRIC_REQUIRE_SERVERS=1 RUBRIC_HEAVY_TESTS=later RUBRIC_SCRIPTS=race $(GO) test -race -p $(RACE_P) $(TEST_FLAGS) -timeout 25m $(RACE_PACKAGES)

test-heavy:
	$(NOCGO) RUBRIC_REQUIRE_SERVERS=1 RUBRIC_SCRIPTS=rest $(GO) test -p $(HEAVY_P) $(TEST_FLAGS) -timeout 25m -run '$(HEAVY_RUN)' $(filter-out $(NORACE_PACKAGES),$(HEAVY_PACKAGES))

test-plain:
	$(NOCGO) RUBRIC_REQUIRE_SERVERS=1 $(GO) test $(TEST_FLAGS) -timeout 25m $(NORACE_PACKAGES)

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
	$(GO) test ./internal/jsonpos -run '^$$' -fuzz '^FuzzParse$$' $(FUZZ)
	$(GO) test ./engine/surface -run '^$$' -fuzz '^FuzzDecodeSplit$$' $(FUZZ)
	$(GO) test ./engine/rubric -run '^$$' -fuzz '^FuzzLoad$$' $(FUZZ)
	$(GO) test ./engine/report -run '^$$' -fuzz '^FuzzRead$$' $(FUZZ)
	$(GO) test ./engine/lang -run '^$$' -fuzz '^FuzzSchemaErrors$$' $(FUZZ)
	$(GO) test ./engine/lang -run '^$$' -fuzz '^FuzzEval$$' $(FUZZ)
	$(GO) test ./engine/lang -run '^$$' -fuzz '^FuzzFromJSON$$' $(FUZZ)
	$(GO) test ./engine/explain -run '^$$' -fuzz '^FuzzExplain$$' $(FUZZ)
	$(GO) test ./engine/rubric -run '^$$' -fuzz '^FuzzFence$$' $(FUZZ)
	$(GO) test ./engine/rubric -run '^$$' -fuzz '^FuzzLengthPlan$$' $(FUZZ)
	$(GO) test ./engine/rubric -run '^$$' -fuzz '^FuzzAnswerShapeNeverAcceptsMore$$' $(FUZZ)
	$(GO) test ./plugins/transports/stdio -run '^$$' -fuzz '^FuzzOutGuard$$' $(FUZZ)
	$(GO) test ./plugins/transports/mcpclient -run '^$$' -fuzz '^FuzzReadPage$$' $(FUZZ)
	$(GO) test ./engine/clientconfig -run '^$$' -fuzz '^FuzzParse$$' $(FUZZ)
	$(GO) test ./engine/clientconfig -run '^$$' -fuzz '^FuzzStripJSONC$$' $(FUZZ)
	$(GO) test ./engine/contract -run '^$$' -fuzz '^FuzzCompare$$' $(FUZZ)
	$(GO) test ./engine/contract -run '^$$' -fuzz '^FuzzCompareJSON$$' $(FUZZ)
	$(GO) test ./engine/lang -run '^$$' -fuzz '^FuzzDataEstimate$$' $(FUZZ)
	$(GO) test ./engine/lang -run '^$$' -fuzz '^FuzzPathSize$$' $(FUZZ)
	$(GO) test ./engine/lang -run '^$$' -fuzz '^FuzzTallyEachIn$$' $(FUZZ)
	$(GO) test ./engine/report -run '^$$' -fuzz '^FuzzCompactJSON$$' $(FUZZ)
	$(GO) test ./engine/surface -run '^$$' -fuzz '^FuzzAlreadyCanonical$$' $(FUZZ)
	$(GO) test ./engine/surface -run '^$$' -fuzz '^FuzzDecoder$$' $(FUZZ)
	$(GO) test ./internal/jsonscan -run '^$$' -fuzz '^FuzzMember$$' $(FUZZ)
	$(GO) test ./internal/jsonscan -run '^$$' -fuzz '^FuzzDecode$$' $(FUZZ)
	$(GO) test ./internal/jsonstr -run '^$$' -fuzz '^FuzzLen$$' $(FUZZ)
	$(GO) test ./internal/jsonpointer -run '^$$' -fuzz '^FuzzEscape$$' $(FUZZ)
	$(GO) test ./internal/tokens -run '^$$' -fuzz '^FuzzO200k$$' $(FUZZ)
	$(GO) test ./judges/heuristic/internal/lex -run '^$$' -fuzz '^FuzzLowerIsStringsToLower$$' $(FUZZ)
	$(GO) test ./judges/heuristic -run '^$$' -fuzz '^FuzzQuestions$$' $(FUZZ)

# Release tools, pinned in tools/go.mod and run with go tool, so that the
# module proxy is all they need.
TOOL = $(GO) tool -modfile=tools/go.mod

# release-snapshot builds the six release archives (linux, darwin and
# windows on amd64 and arm64) and checksums.txt into dist/, as a release
# would, without publishing anything. It is not part of make test: it
# makes six builds of rubric, and the first run builds goreleaser itself
# (1,788 packages). On the shared 2-core machine at a load average of
# about 40, building goreleaser took 40 minutes and each rubric build
# about 30, two at a time: goreleaser's own one-hour timeout stopped the
# run after four of six, hence --timeout 3h.
release-snapshot:
	$(TOOL) goreleaser release --snapshot --clean --timeout 3h
	@ls dist/*.tar.gz dist/*.zip dist/checksums.txt

# npm-check packs the npm packages of dist/ (make release-snapshot first)
# and installs them offline into a scratch project (npm/check.sh).
npm-check:
	bash npm/check.sh

# actionlint checks the workflows, the repository's own and the
# examples, and through the repository's own, action.yml's inputs.
actionlint:
	$(TOOL) actionlint .github/workflows/*.yml examples/workflows/*.yml

# staticcheck (tools/go.mod) reads the module for what go vet does not:
# code nothing calls, results computed and dropped, deprecated calls.
# It is not part of make test: on a fresh machine its first run compiles
# and analyses every dependency, minutes of CPU (2 s once cached). A
# finding kept on purpose carries a //lint:ignore line that says why.
staticcheck:
	$(TOOL) staticcheck ./...
