#!/usr/bin/env bash
# Runs rubric score or gate for action.yml with the inputs in IN_* and
# the judge that Prepare chose (JUDGE, MODEL), and writes to
# $GITHUB_OUTPUT: exit-code, decision, markdown (the report to show),
# sarif (when IN_SARIF is "true") and, for score with a lock file in
# IN_VERIFY, verify and verify-markdown (rubric verify's verdict; the
# gate takes the lock itself, as --lock). It exits 0 whatever rubric
# decided: action.yml's last step raises the exit status once the report
# is shown.
set -uo pipefail

dir="$IN_REPORT_DIR"
mkdir -p "$dir"
# Reports of an earlier run in this workspace (a self-hosted runner, an
# earlier step) must not stand in for this run's.
rm -f "$dir/score.md" "$dir/score.sarif" "$dir/verify.md" "$dir/gate.json" "$dir/gate.md" "$dir/head.sarif" "$dir/$IN_COMMAND-error.md"
# rubric's standard error is kept too: when it stops before writing a
# report, the summary and the comment say why, not the log alone.
errlog="$dir/$IN_COMMAND.stderr"
rubric() {
  "$RUBRIC" "$@" 2> "$errlog"
  local c=$?
  cat "$errlog" >&2
  return $c
}
# IN_RUBRIC is the --rubric to give: the input, or tdqs when neither it
# nor rubric.yaml names one; empty when rubric.yaml chooses, which rubric
# reads itself (the gate reads each side's, as without the Action).
args=()
if [ -n "$IN_RUBRIC" ]; then args+=(--rubric "$IN_RUBRIC"); fi
if [ -n "$JUDGE" ]; then args+=(--judge "$JUDGE"); fi
if [ -n "$MODEL" ]; then args+=(--model "$MODEL"); fi
# A fork's run under fork-policy heuristic: the settings a rubric.yaml
# gives another judge are set aside, as flags outrank the file.
if [ "${HEURISTIC_ONLY:-}" = true ]; then args+=(--model "" --judge-option "" --base-url "" --answers ""); fi
if [ "$IN_CACHE" = true ]; then args+=(--cache-dir "$CACHE_DIR"); fi
# The server command is the workflow author's: eval splits it into words
# as a shell would, so its quotes and variables work as written. It
# splits it inside an array's parentheses, where an operator (&&, ;, |,
# &) or a redirection is a syntax error: eval "set -- ..." ran the part
# before the operator in this step and gave rubric the rest as the
# server, which scored the wrong command.
# Inside the parentheses a newline is a space, so an input of two lines
# (a block scalar) would be read as one command of both: it is refused,
# once the newlines a block scalar ends with are cut. The closing
# parenthesis stands on a line of its own, so that a trailing # comment
# does not swallow it.
refused=""
if [ -n "$IN_SERVER" ]; then
  line="$IN_SERVER"
  while [[ "$line" == *$'\n' ]]; do line="${line%$'\n'}"; done
  if [[ "$line" == *$'\n'* ]]; then
    refused="the server input holds more than one line; it is one command. To build before the server starts, or to run two commands, give one that runs a shell: server: sh -c 'npm run build && node dist/index.js'"
  elif eval "server=( $line
)" 2> "$errlog"; then
    target=(-- "${server[@]}")
  else
    refused="the server input is not one command: $(tr '\n' ' ' < "$errlog")
a shell operator (&&, ;, |, &) or a redirection does not split into the words of one command. To build before the server starts, or to run two commands, give one that runs a shell: server: sh -c 'npm run build && node dist/index.js'"
  fi
else
  target=("$IN_TARGET")
fi

sarif="" verify="" vmd=""
if [ -n "$refused" ]; then
  echo "::error::$refused" | head -n 1
  echo "$refused" > "$errlog"
  code=2 decision=INVALID md=""
elif [ "$IN_COMMAND" = score ]; then
  extra=(--json "$dir/score.json" --markdown "$dir/score.md")
  if [ "$IN_SARIF" = true ]; then sarif="$dir/score.sarif"; extra+=(--sarif "$sarif" --sarif-category "$SARIF_CATEGORY"); fi
  if [ -n "$IN_FAIL_UNDER" ]; then extra+=(--fail-under "$IN_FAIL_UNDER"); fi
  rubric score "${args[@]}" "${extra[@]}" "${target[@]}"
  code=$?
  md="$dir/score.md"
  # A run that stopped before its report wrote no SARIF: nothing to upload.
  if [ -n "$sarif" ] && [ ! -s "$sarif" ]; then sarif=""; fi
  if [ -n "$IN_VERIFY" ]; then
    # A tool that differs from the lock fails the run, and one that
    # cannot be read makes it INVALID, whatever the score.
    vmd="$dir/verify.md"
    "$RUBRIC" verify --lock-file "$IN_VERIFY" --markdown "$vmd" "${target[@]}"
    vcode=$?
    case $vcode in 0) verify=unchanged ;; 1) verify=changed ;; *) verify=invalid ;; esac
    if [ $vcode -ne 0 ] && { [ $code -eq 0 ] || [ $vcode -eq 2 ]; }; then code=$vcode; fi
    if [ ! -f "$vmd" ]; then vmd=""; fi
  fi
  case $code in 0) decision=PASS ;; 1) decision=FAIL ;; *) decision=INVALID ;; esac
else
  # The base: the input, else a pull request's base branch, else in a
  # merge queue (merge_group) the commit the group is merged onto.
  base="$IN_BASE"
  if [ -z "$base" ] && [ -n "${GITHUB_BASE_REF:-}" ]; then base="origin/$GITHUB_BASE_REF"; fi
  if [ -z "$base" ] && [ -n "${EVENT_BASE:-}" ]; then base="$EVENT_BASE"; fi
  if [ -z "$base" ]; then echo "::error::rubric gate needs a base: run it on pull_request or merge_group, or set the base input"; fi
  # The step summary is written by the next step, cut to GitHub's limit.
  gate=(--base "$base" --report-dir "$dir")
  if [ -n "$IN_VERIFY" ]; then gate+=(--lock "$IN_VERIFY"); fi
  # The workflow's choice wins over rubric.yaml's, which the gate reads
  # as the base has it.
  if [ -n "${IN_FAIL_ON_BREAKING:-}" ]; then gate+=("--fail-on-breaking=$IN_FAIL_ON_BREAKING"); fi
  GITHUB_STEP_SUMMARY="" rubric gate "${args[@]}" "${gate[@]}" "${target[@]}"
  code=$?
  md="$dir/gate.md"
  case $code in 0) decision=PASS ;; 1) decision=BLOCK ;; *) decision=INVALID ;; esac
  # The head's findings, from the answers the gate just cached. Exit
  # status 1 is a score below a fail-under of the repository's
  # rubric.yaml, with the SARIF written: it is uploaded all the same.
  if [ "$IN_SARIF" = true ] && [ $code -ne 2 ]; then
    sarif="$dir/head.sarif"
    rm -f "$sarif"
    "$RUBRIC" score "${args[@]}" --format sarif --out "$sarif" --sarif-category "$SARIF_CATEGORY" "${target[@]}" > /dev/null
    if [ $? -gt 1 ] || [ ! -s "$sarif" ]; then sarif=""; fi
  fi
fi
if [ ! -f "$md" ]; then
  md=""
  if [ "$code" -ne 0 ] && [ -s "$errlog" ]; then
    md="$dir/$IN_COMMAND-error.md"
    {
      echo "## rubric $IN_COMMAND: $decision"
      echo
      echo "rubric stopped before it wrote a report (exit status $code):"
      echo
      echo '```'
      tail -c 8000 "$errlog"
      echo '```'
    } > "$md"
  fi
fi
{
  echo "exit-code=$code"
  echo "decision=$decision"
  echo "markdown=$md"
  echo "sarif=$sarif"
  echo "verify=$verify"
  echo "verify-markdown=$vmd"
} >> "$GITHUB_OUTPUT"
