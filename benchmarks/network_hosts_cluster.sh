#!/usr/bin/env bash
# A Dask cluster across three network hosts on one machine (run by hand, as root; not a test).
#
# Each host is a Linux network namespace with its own address on a bridge: the scheduler on
# 10.77.0.2, one worker on 10.77.0.3 and one on 10.77.0.4, and courtsim (the client) on the bridge
# itself, 10.77.0.1. The workers start in empty directories of their own and get only the installed
# package: every table reaches the client over TCP and the client alone writes the run directory.
# The script plays the same run with --cluster and with --jobs -1 and checks that the tables are
# equal, then removes the namespaces.
#
#   sudo benchmarks/network_hosts_cluster.sh [GAMES]      (default 400000 Louis XIV games, 4 players)
#
# Needs iproute2 (`ip`) and the project's virtualenv in .venv (the README's install).
set -euo pipefail
cd "$(dirname "$0")/.."
GAMES=${1:-400000}
VENV=$(pwd)/.venv
WORK=$(mktemp -d /tmp/courtsim-hosts.XXXXXX)
BRIDGE=csbr0
HOSTS=(scheduler worker_a worker_b)
ADDRESSES=(10.77.0.2 10.77.0.3 10.77.0.4)

cleanup() {
    for host in "${HOSTS[@]}"; do
        ip netns pids "cs_$host" 2>/dev/null | xargs -r kill 2>/dev/null || true
        ip netns del "cs_$host" 2>/dev/null || true
    done
    ip link del "$BRIDGE" 2>/dev/null || true
}
trap cleanup EXIT
cleanup

ip link add "$BRIDGE" type bridge
ip addr add 10.77.0.1/24 dev "$BRIDGE"
ip link set "$BRIDGE" up
for index in "${!HOSTS[@]}"; do
    host=${HOSTS[$index]}
    ip netns add "cs_$host"
    ip link add "veth_$index" type veth peer name eth0 netns "cs_$host"
    ip link set "veth_$index" master "$BRIDGE" up
    ip -n "cs_$host" addr add "${ADDRESSES[$index]}/24" dev eth0
    ip -n "cs_$host" link set eth0 up
    ip -n "cs_$host" link set lo up
done

in_host() {   # in_host HOST COMMAND...: run in HOST's namespace, from an empty directory of its own
    local host=$1; shift
    mkdir -p "$WORK/$host"
    (cd "$WORK/$host" && exec ip netns exec "cs_$host" "$@")
}

in_host scheduler "$VENV/bin/dask" scheduler --host 10.77.0.2 --port 8786 --no-dashboard \
    >"$WORK/scheduler.log" 2>&1 &
sleep 5
for index in 1 2; do
    host=${HOSTS[$index]}
    in_host "$host" "$VENV/bin/dask" worker tcp://10.77.0.2:8786 --host "${ADDRESSES[$index]}" \
        --nworkers 1 --nthreads 1 --no-dashboard --local-directory "$WORK/$host" >"$WORK/$host.log" 2>&1 &
done
sleep 8
echo "== scheduler 10.77.0.2:8786, workers on 10.77.0.3 and 10.77.0.4"
"$VENV/bin/python" - <<'EOF'
from distributed import Client
with Client("tcp://10.77.0.2:8786", timeout=30) as client:
    for address, info in sorted(client.scheduler_info()["workers"].items()):
        print(f"   worker {address} ({info['nthreads']} thread)")
EOF

. "$VENV/bin/activate"
for pass in first second; do
    rm -rf "$WORK/cluster_run"
    echo "== courtsim simulate --cluster ($pass run)"
    /usr/bin/time -f "   %e s wall, %M KB peak (client)" courtsim simulate louis-xiv --players 4 --games "$GAMES" \
        --cluster tcp://10.77.0.2:8786 --out "$WORK/cluster_run"
done
echo "== courtsim simulate --jobs -1 (this host)"
/usr/bin/time -f "   %e s wall" courtsim simulate louis-xiv --players 4 --games "$GAMES" --jobs -1 --out "$WORK/local_run"

python - "$WORK" <<'EOF'
import sys
from pathlib import Path

import polars as pl
import yaml

work = Path(sys.argv[1])
for table in ("games", "seats", "courtiers"):
    cluster, local = (pl.read_parquet(work / run / f"{table}.parquet") for run in ("cluster_run", "local_run"))
    assert cluster.equals(local), table
    print(f"   {table}: {cluster.height:,} rows, equal")
for run in ("cluster_run", "local_run"):
    manifest = yaml.safe_load((work / run / "run.yaml").read_text())
    timing = manifest.get("timings", {})
    print(f"   {run}: play {timing.get('play_seconds')} s, merge {timing.get('merge_seconds')} s")
for host in ("worker_a", "worker_b"):
    leftovers = [path.name for path in (work / host).iterdir() if path.suffix == ".parquet"]
    assert not leftovers, (host, leftovers)
print("   the workers' directories hold no table: every part reached the client over TCP")
EOF
