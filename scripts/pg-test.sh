#!/usr/bin/env bash
# pg-test.sh starts a throwaway Postgres on a free loopback port, in a
# cluster made in a temporary directory, for the tests of the job queue
# (internal/jobqueue), which read its address from RUBRIC_TEST_POSTGRES.
#
#   scripts/pg-test.sh make test     run a command with the variable set,
#                                    then stop the server and delete it
#   scripts/pg-test.sh               start one, print the export line
#                                    and how to stop it, and leave it up
#
# It needs Debian's postgresql package (.ci/run installs it). initdb
# refuses to run as root, so as root the cluster belongs to the user
# postgres, which the package creates.
set -euo pipefail

bin=$(ls -d /usr/lib/postgresql/*/bin 2>/dev/null | sort -V | tail -n 1)
if [ -z "$bin" ]; then
	echo "pg-test.sh: no Postgres under /usr/lib/postgresql: apt-get install postgresql (as .ci/run does)" >&2
	exit 1
fi
as=()
if [ "$(id -u)" = 0 ]; then
	as=(runuser -u postgres --)
fi

dir=$(mktemp -d "${TMPDIR:-/tmp}/rubric-pg.XXXXXX")
chmod 755 "$dir"
[ ${#as[@]} -eq 0 ] || chown postgres "$dir"

# The first port from 54320 on that nothing listens on.
port=""
for p in $(seq 54320 54420); do
	if ! (: </dev/tcp/127.0.0.1/"$p") 2>/dev/null; then
		port=$p
		break
	fi
done
[ -n "$port" ] || { echo "pg-test.sh: no free port in 54320-54420" >&2; exit 1; }

"${as[@]}" "$bin/initdb" -D "$dir/data" -U postgres --auth=trust -E UTF8 --no-instructions >"$dir/initdb.log" 2>&1 ||
	{ cat "$dir/initdb.log" >&2; exit 1; }
"${as[@]}" "$bin/pg_ctl" -D "$dir/data" -l "$dir/server.log" -w \
	-o "-c listen_addresses=127.0.0.1 -p $port -k $dir -c fsync=off -c max_connections=200" start >/dev/null ||
	{ cat "$dir/server.log" >&2; exit 1; }
"${as[@]}" "$bin/createdb" -h 127.0.0.1 -p "$port" -U postgres rubric_test

url="postgres://postgres@127.0.0.1:$port/rubric_test?sslmode=disable"
stop="${as[*]} $bin/pg_ctl -D $dir/data -m immediate stop && rm -rf $dir"

if [ $# -eq 0 ]; then
	echo "export RUBRIC_TEST_POSTGRES='$url'"
	echo "# to stop it: $stop" >&2
	exit 0
fi
trap '"${as[@]}" "$bin/pg_ctl" -D "$dir/data" -m immediate stop >/dev/null 2>&1 || true; rm -rf "$dir"' EXIT
RUBRIC_TEST_POSTGRES=$url "$@"
