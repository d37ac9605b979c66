#!/bin/sh
# Makes sure the machine's PostgreSQL 15 is installed and running, with a role the tests can
# use to create and drop their own databases. Idempotent; run as root on Debian.
# Prints only the admin URL on stdout (TEST_POSTGRES_URL); everything else goes to stderr.
set -eu

VERSION=15
ROLE=feedback
PASSWORD=feedback

# Waits until the server accepts connections (a start takes a moment).
wait_until_up() {
  tries=0
  until su postgres -c "psql -qAtc 'SELECT 1'" >/dev/null 2>&1; do
    tries=$((tries + 1))
    [ "$tries" -ge 30 ] && { echo "PostgreSQL did not come up" ; exit 1; }
    sleep 1
  done
}

{
  if ! command -v pg_ctlcluster >/dev/null 2>&1 || [ ! -d "/usr/lib/postgresql/$VERSION" ]; then
    apt-get update
    DEBIAN_FRONTEND=noninteractive apt-get install -y postgresql
  fi
  if ! pg_lsclusters -h | awk -v v="$VERSION" '$1 == v && $2 == "main"' | grep -q .; then
    pg_createcluster "$VERSION" main
  fi
  pg_ctlcluster "$VERSION" main start || pg_lsclusters -h | awk -v v="$VERSION" '$1 == v && $2 == "main" && $4 == "online"' | grep -q .

  wait_until_up

  # shared_buffers: a quarter of the machine's memory, the usual advice the README gives (see
  # "Give PostgreSQL memory for the posts"), in place of Debian's 128MB. And pg_prewarm (a
  # module PostgreSQL ships) in shared_preload_libraries, kept beside any others there: its
  # autoprewarm writes down which pages the buffers hold, and reads them back after a restart,
  # where the first searches would otherwise read each from disk (see "Let PostgreSQL read its
  # buffers back after a restart"). Both take a restart, so one is made only when a setting
  # changed.
  quarter_mb=$(awk '/^MemTotal:/ { print int($2 / 1024 / 4) }' /proc/meminfo)
  [ "$quarter_mb" -lt 128 ] && quarter_mb=128
  su postgres -c "psql -qc \"ALTER SYSTEM SET shared_buffers = '${quarter_mb}MB'\""
  # The running server's libraries ("a, b"), each given to ALTER SYSTEM as a string of its own:
  # one string 'a,b' would name a single library called "a,b".
  libraries=$(su postgres -c "psql -qAtc 'SHOW shared_preload_libraries'" | tr -d ' ')
  case ",$libraries," in
    *,pg_prewarm,*) wanted=$libraries ;;
    ,,) wanted=pg_prewarm ;;
    *) wanted="$libraries,pg_prewarm" ;;
  esac
  quoted=$(echo "$wanted" | sed "s/[^,][^,]*/'&'/g; s/,/, /g")
  su postgres -c "psql -qc \"ALTER SYSTEM SET shared_preload_libraries = $quoted\""
  # The running server's settings: shared_buffers in MB (pg_settings counts 8 kB buffers), and
  # whether the running server loaded pg_prewarm.
  running_mb=$(su postgres -c "psql -qAtc \"SELECT setting::bigint * 8 / 1024 FROM pg_settings WHERE name = 'shared_buffers'\"")
  if [ "$running_mb" != "$quarter_mb" ] || [ "$wanted" != "$libraries" ]; then
    pg_ctlcluster "$VERSION" main restart
    wait_until_up
  fi

  # Huge pages for PostgreSQL's shared memory (see "Give PostgreSQL huge pages" in the README):
  # with 4 kB pages every backend maps each buffer it reads for the first time, and here that
  # cost a search more than the search itself. The kernel's pool of huge pages is made as large
  # as the running server's shared memory needs (shared_memory_size_in_huge_pages, for the
  # settings above), and huge_pages = try lets PostgreSQL start without them if the kernel
  # could not set that many aside, so the tests never depend on it; then this says so.
  needed=$(su postgres -c "psql -qAtc 'SHOW shared_memory_size_in_huge_pages'")
  if [ "${needed:--1}" -gt 0 ] && [ -w /proc/sys/vm/nr_hugepages ]; then
    # A kernel that cannot set them all aside keeps fewer, which the check below reports.
    if [ "$(cat /proc/sys/vm/nr_hugepages)" -lt "$needed" ]; then
      echo "$needed" > /proc/sys/vm/nr_hugepages || true
    fi
    su postgres -c "psql -qc \"ALTER SYSTEM SET huge_pages = 'try'\""
    postmaster() { head -n 1 "$(pg_lsclusters -h | awk -v v="$VERSION" '$1 == v && $2 == "main" { print $6 }')/postmaster.pid"; }
    if ! grep -q anon_hugepage "/proc/$(postmaster)/maps"; then
      pg_ctlcluster "$VERSION" main restart
      wait_until_up
    fi
    grep -q anon_hugepage "/proc/$(postmaster)/maps" ||
      echo "PostgreSQL runs without huge pages: the kernel set aside $(cat /proc/sys/vm/nr_hugepages) of the $needed it needs"
  fi

  exists=$(su postgres -c "psql -qAtc \"SELECT 1 FROM pg_roles WHERE rolname = '$ROLE'\"")
  if [ "$exists" != "1" ]; then
    su postgres -c "psql -qc \"CREATE ROLE $ROLE LOGIN PASSWORD '$PASSWORD' CREATEDB\""
  else
    su postgres -c "psql -qc \"ALTER ROLE $ROLE LOGIN PASSWORD '$PASSWORD' CREATEDB\""
  fi
} >&2

echo "postgresql://$ROLE:$PASSWORD@127.0.0.1:5432/postgres"
