#!/usr/bin/env bash
# A one-node Slurm on this machine: for the tests, for CI, and for anyone trying the cluster
# path (scripts/match-shards.sh, scripts/network-generation.sh --slurm) before a real
# cluster.
#
#     scripts/slurm-local.sh up      # install Slurm and munge if missing (Debian's
#                                    # packages), write a one-node configuration for this
#                                    # machine, start munged, slurmctld and slurmd, and
#                                    # wait until the node is idle; safe to run twice
#     scripts/slurm-local.sh down    # stop what `up` started, by process id
#     scripts/slurm-local.sh status  # the node's state, as sinfo says it
#
# Run as root (the packages, the configuration in /etc/slurm and the daemons need it). The
# daemons' state, logs and process ids are kept in SLURM_LOCAL_DIR (default
# /tmp/ternion-slurm). Every job runs on this machine, as root, with the daemons' plugins
# for a machine without cgroups (proctrack/linuxproc, task/none).
#
# A real cluster differs in two ways that matter here: the run's directory must be on
# storage every node shares (the shards write there and the merge reads there), and the
# ternion binary must be at the same path on every node.
set -euo pipefail

state="${SLURM_LOCAL_DIR:-/tmp/ternion-slurm}"
conf=/etc/slurm/slurm.conf

usage() {
    sed -n '2,20p' "$0" >&2
    exit 2
}

# Whether the daemon whose process id is in file $1 is running.
alive() {
    [ -s "$1" ] && kill -0 "$(cat "$1")" 2>/dev/null
}

node_state() {
    sinfo -h -N -o %t 2>/dev/null | head -n1
}

install_packages() {
    if command -v slurmctld >/dev/null && command -v slurmd >/dev/null &&
        command -v munged >/dev/null && command -v sbatch >/dev/null; then
        return
    fi
    export DEBIAN_FRONTEND=noninteractive
    apt-get install -y -q slurm-wlm munge >/dev/null ||
        { apt-get update -q >/dev/null && apt-get install -y -q slurm-wlm munge >/dev/null; }
}

write_configuration() {
    local host cpus memory
    host="$(hostname -s)"
    cpus="$(nproc)"
    # What slurmd will see, less a little: a node that claims more than it has is drained.
    memory="$(awk '/^MemTotal:/ { print int($2 / 1024 * 0.9) }' /proc/meminfo)"
    mkdir -p /etc/slurm "$state/spool" "$state/ctld" "$state/log"
    cat >"$conf" <<EOF
# Written by scripts/slurm-local.sh: one node, this machine.
ClusterName=ternion
SlurmctldHost=$host(127.0.0.1)
SlurmUser=root
SlurmdUser=root
AuthType=auth/munge
StateSaveLocation=$state/ctld
SlurmdSpoolDir=$state/spool
SlurmctldPidFile=$state/slurmctld.pid
SlurmdPidFile=$state/slurmd.pid
SlurmctldLogFile=$state/log/slurmctld.log
SlurmdLogFile=$state/log/slurmd.log
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
ReturnToService=2
SchedulerType=sched/backfill
# Look for runnable jobs every second, not every minute: a generation is a chain of jobs,
# each waiting on the one before.
SchedulerParameters=sched_interval=1,bf_interval=1
SelectType=select/cons_tres
SelectTypeParameters=CR_Core
MpiDefault=none
NodeName=$host NodeAddr=127.0.0.1 CPUs=$cpus RealMemory=$memory State=UNKNOWN
PartitionName=local Nodes=$host Default=YES MaxTime=INFINITE State=UP
EOF
}

start_munge() {
    if alive "$state/munged.pid"; then
        return
    fi
    if [ ! -s /etc/munge/munge.key ]; then
        mkdir -p /etc/munge
        dd if=/dev/urandom of=/etc/munge/munge.key bs=1024 count=1 status=none
    fi
    chmod 0400 /etc/munge/munge.key
    mkdir -p /run/munge
    # As root (--force): a test cluster of one machine, whose jobs run as root anyway.
    munged --force --pid-file="$state/munged.pid" --log-file="$state/log/munged.log" \
        --key-file=/etc/munge/munge.key
    for _ in $(seq 50); do
        [ -s "$state/munged.pid" ] && return
        sleep 0.1
    done
    echo "slurm-local: munged did not start; see $state/log/munged.log" >&2
    exit 1
}

up() {
    [ "$(id -u)" = 0 ] || { echo "slurm-local.sh: run as root" >&2; exit 1; }
    mkdir -p "$state"
    if alive "$state/slurmctld.pid" && alive "$state/slurmd.pid" && [ "$(node_state)" = idle ]; then
        echo "slurm-local: up already ($(hostname -s) idle)"
        return
    fi
    install_packages
    write_configuration
    start_munge
    alive "$state/slurmctld.pid" || slurmctld
    alive "$state/slurmd.pid" || slurmd
    for _ in $(seq 120); do
        case "$(node_state)" in
            idle) echo "slurm-local: up ($(hostname -s) idle, $(nproc) CPUs)"; return ;;
            drain* | down*) scontrol update nodename="$(hostname -s)" state=resume 2>/dev/null || true ;;
        esac
        sleep 0.5
    done
    echo "slurm-local: the node did not become idle in 60 s; see $state/log" >&2
    exit 1
}

down() {
    local daemon pid
    for daemon in slurmd slurmctld munged; do
        # Read once: munged removes its own pid file as it exits.
        pid="$(cat "$state/$daemon.pid" 2>/dev/null || true)"
        if [ -n "$pid" ] && kill -0 "$pid" 2>/dev/null; then
            kill "$pid"
            for _ in $(seq 50); do
                kill -0 "$pid" 2>/dev/null || break
                sleep 0.1
            done
        fi
        rm -f "$state/$daemon.pid"
    done
    echo "slurm-local: down"
}

case "${1:-}" in
    up) up ;;
    down) down ;;
    status) node_state ;;
    *) usage ;;
esac
