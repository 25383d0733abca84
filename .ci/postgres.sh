# A throwaway PostgreSQL for the tests. Source it from the project folder:
#   . .ci/postgres.sh
# It needs Debian's PostgreSQL (sudo apt-get install -y postgresql; .ci/run installs it), makes a
# cluster in a temp folder owned by the `postgres` user (or by you when you are not root), starts
# it on 127.0.0.1:${TR_PG_PORT:-5433} with trust authentication, and exports TEST_DATABASE_URL.
# Stop it with: tr_pg_stop
# The cluster's default locale is a stock one, as on a managed service: en_US.UTF-8 when the
# machine has it (.ci/run generates it), else C.UTF-8, or TR_PG_LOCALE. The tests' databases take
# that default, so they prove the app does not need a database created with collation C.

tr_pg_bin=$(ls -d /usr/lib/postgresql/*/bin 2>/dev/null | sort -V | tail -1)
tr_pg_port=${TR_PG_PORT:-5433}
tr_pg_dir=${TR_PG_DIR:-/tmp/taskreward-pg-$tr_pg_port}

tr_pg_locale() {
  if [ -n "${TR_PG_LOCALE:-}" ]; then
    echo "$TR_PG_LOCALE"
  elif locale -a 2>/dev/null | grep -qix 'en_US\.utf-\?8'; then
    echo en_US.UTF-8
  else
    echo C.UTF-8
  fi
}

tr_pg_as() {
  if [ "$(id -u)" = 0 ]; then su postgres -s /bin/sh -c "$*"; else sh -c "$*"; fi
}

tr_pg_start() {
  if [ -z "$tr_pg_bin" ]; then
    echo "postgres.sh: no PostgreSQL under /usr/lib/postgresql (sudo apt-get install -y postgresql)" >&2
    return 1
  fi
  if [ ! -f "$tr_pg_dir/data/PG_VERSION" ]; then
    mkdir -p "$tr_pg_dir"
    [ "$(id -u)" = 0 ] && chown postgres "$tr_pg_dir"
    tr_pg_as "$tr_pg_bin/initdb -D $tr_pg_dir/data -U postgres --auth=trust -E UTF8 --locale=$(tr_pg_locale)" >"$tr_pg_dir/initdb.log" 2>&1 || {
      cat "$tr_pg_dir/initdb.log" >&2
      return 1
    }
  fi
  if ! tr_pg_as "$tr_pg_bin/pg_ctl -D $tr_pg_dir/data status" >/dev/null 2>&1; then
    # fsync off: a test cluster thrown away after the run; 300 connections for parallel test files
    tr_pg_as "$tr_pg_bin/pg_ctl -D $tr_pg_dir/data -l $tr_pg_dir/log -w -o '-p $tr_pg_port -k $tr_pg_dir -c listen_addresses=127.0.0.1 -c fsync=off -c synchronous_commit=off -c full_page_writes=off -c max_connections=300' start" >/dev/null || {
      cat "$tr_pg_dir/log" >&2
      return 1
    }
  fi
  export TEST_DATABASE_URL="postgres://postgres@127.0.0.1:$tr_pg_port/postgres"
  echo "PostgreSQL $("$tr_pg_bin/postgres" --version | awk '{print $3}') at $TEST_DATABASE_URL"
}

tr_pg_stop() {
  tr_pg_as "$tr_pg_bin/pg_ctl -D $tr_pg_dir/data -m fast stop" >/dev/null 2>&1 || true
}

tr_pg_start
