#!/usr/bin/env bash
# Runs an MPI program as on two hosts: two Linux network namespaces joined by a veth pair (10.77.0.1 and
# 10.77.0.2), one rank in each, over Open MPI's TCP transport only (no shared memory). Open MPI starts the
# remote daemon through its rsh agent, here `ip netns exec` instead of ssh. Needs root (CAP_NET_ADMIN);
# exits 77 (skipped) when namespaces cannot be made.
#   scripts/multihost_netns.sh [--tc "QDISC ARGS"] PROGRAM [ARGS...]
# --tc shapes the link both ways with a root qdisc, e.g. --tc "tbf rate 1gbit burst 256kb latency 50ms"
# (bandwidth) or --tc "netem delay 1ms" (latency; needs the kernel's sch_netem, which some lack).
set -euo pipefail
shaping=""
if [ "${1:-}" = "--tc" ]; then shaping=$2; shift 2; fi
[ $# -ge 1 ] || { echo "usage: $0 [--tc \"QDISC ARGS\"] PROGRAM [ARGS...]" >&2; exit 2; }
id=$$
a=kcpp_a_$id b=kcpp_b_$id
work=$(mktemp -d)
cleanup() {
  ip netns del "$a" 2>/dev/null || true
  ip netns del "$b" 2>/dev/null || true
  rm -rf "$work"
}
trap cleanup EXIT
# Everything before mpirun is setup: where the system does not allow it, the run is skipped (77).
setup() {
  ip netns add "$a" && ip netns add "$b" &&
    ip link add "kva$id" type veth peer name "kvb$id" &&
    ip link set "kva$id" netns "$a" && ip link set "kvb$id" netns "$b" &&
    ip -n "$a" addr add 10.77.0.1/24 dev "kva$id" && ip -n "$b" addr add 10.77.0.2/24 dev "kvb$id" &&
    ip -n "$a" link set lo up && ip -n "$b" link set lo up &&
    ip -n "$a" link set "kva$id" up && ip -n "$b" link set "kvb$id" up
}
if ! setup 2>"$work/setup.log"; then
  echo "skipped: cannot make two network namespaces joined by a veth pair (run as root with CAP_NET_ADMIN):" >&2
  cat "$work/setup.log" >&2
  exit 77
fi
if [ -n "$shaping" ]; then
  # shellcheck disable=SC2086  # the spec is several tc words
  ip netns exec "$a" tc qdisc add dev "kva$id" root $shaping
  # shellcheck disable=SC2086
  ip netns exec "$b" tc qdisc add dev "kvb$id" root $shaping
fi

# Open MPI's rsh agent is called as `agent HOST COMMAND...`: run COMMAND in HOST's namespace.
cat > "$work/netns_rsh" <<AGENT
#!/bin/sh
host=\$1; shift
case \$host in
  10.77.0.1) ns=$a ;;
  10.77.0.2) ns=$b ;;
  *) echo "netns_rsh: unknown host \$host" >&2; exit 1 ;;
esac
exec ip netns exec "\$ns" sh -c "\$*"
AGENT
chmod +x "$work/netns_rsh"
printf '10.77.0.1 slots=1\n10.77.0.2 slots=1\n' > "$work/hosts"

export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 OMP_NUM_THREADS=${OMP_NUM_THREADS:-1}
ip netns exec "$a" mpirun -np 2 --hostfile "$work/hosts" --map-by node \
  --mca plm_rsh_agent "$work/netns_rsh" --mca btl tcp,self \
  --mca btl_tcp_if_include 10.77.0.0/24 --mca oob_tcp_if_include 10.77.0.0/24 \
  -x OMP_NUM_THREADS "$@"
