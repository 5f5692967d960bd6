#!/usr/bin/env bash
# A one-node Slurm cluster on this machine, for tests: munged, slurmctld and slurmd started by
# hand (no systemd needed) with everything — munge key and socket, slurm.conf, state, spool, logs,
# PID files — under one work directory.
#
#   bash scripts/slurm-local.sh start [DIR]   # prints `export SLURM_CONF=DIR/slurm.conf`
#   bash scripts/slurm-local.sh stop [DIR]    # cancels the cluster's jobs, stops its daemons
#
# DIR defaults to $CSC_SLURM_DIR, else /tmp/csc-slurm. Needs root and Debian's slurmctld, slurmd,
# slurm-client and munge packages (scripts/test.sh installs them when missing). `stop` signals
# exactly the daemons `start` recorded in DIR/pids, by PID, after checking that each PID still
# runs that program (PIDs are reused). A failed `start` stops what it had started. Only one
# cluster can run per machine: Slurm's ports 6817/6818 are fixed.
set -euo pipefail

cmd=${1:-}
DIR=$(realpath -m "${2:-${CSC_SLURM_DIR:-/tmp/csc-slurm}}")
PIDS=$DIR/pids

# alive PID NAME: PID runs program NAME and is not a zombie (PID 1 here reaps late).
alive() {
    local pid=$1 name=$2 state
    [ -r "/proc/$pid/comm" ] && [ "$(cat "/proc/$pid/comm" 2>/dev/null)" = "$name" ] || return 1
    state=$(sed -E 's/^[0-9]+ \(.*\) ([A-Za-z]).*/\1/' "/proc/$pid/stat" 2>/dev/null) || return 1
    [ "$state" != Z ] && [ "$state" != X ]
}

# stop_recorded: stops every daemon listed in DIR/pids (NAME PID per line), newest first.
stop_recorded() {
    [ -f "$PIDS" ] || return 0
    if [ -f "$DIR/slurm.conf" ] && command -v scancel >/dev/null; then
        # the cluster's jobs first, so that no job step outlives its slurmd
        SLURM_CONF=$DIR/slurm.conf timeout 10 scancel --user="$(id -un)" 2>/dev/null || true
        for _ in $(seq 1 20); do
            [ -z "$(SLURM_CONF=$DIR/slurm.conf timeout 5 squeue -h -o %i 2>/dev/null)" ] && break
            sleep 0.5
        done
    fi
    local name pid
    tac "$PIDS" | while read -r name pid; do
        if alive "$pid" "$name"; then
            kill -TERM "$pid" 2>/dev/null || true
            for _ in $(seq 1 40); do
                alive "$pid" "$name" || break
                sleep 0.25
            done
            if alive "$pid" "$name"; then
                echo "slurm-local: $name ($pid) ignored SIGTERM for 10 s; sending SIGKILL" >&2
                kill -KILL "$pid" 2>/dev/null || true
            fi
        fi
    done
    rm -f "$PIDS" "$DIR/run/"*.pid
}

# wait_pidfile NAME FILE LOG: waits up to 15 s for daemon NAME to write FILE, records it.
wait_pidfile() {
    local name=$1 file=$2 log=$3 pid
    for _ in $(seq 1 60); do
        if [ -s "$file" ]; then
            pid=$(tr -dc 0-9 <"$file")
            if [ -n "$pid" ] && alive "$pid" "$name"; then
                echo "$name $pid" >>"$PIDS"
                return 0
            fi
        fi
        sleep 0.25
    done
    echo "slurm-local: $name did not start (no live PID in $file); its log, $log:" >&2
    tail -n 20 "$log" >&2 2>/dev/null || true
    return 1
}

start() {
    [ "$(id -u)" -eq 0 ] || { echo "slurm-local: run as root (slurmd and munged need it)" >&2; exit 1; }
    for tool in munged slurmctld slurmd sbatch; do
        command -v "$tool" >/dev/null || {
            echo "slurm-local: $tool is missing; install it: apt-get install --no-install-recommends slurmctld slurmd slurm-client munge" >&2
            exit 1
        }
    done
    if [ -f "$PIDS" ]; then
        # A cluster of an earlier run that was killed before it could stop: refuse while any of its
        # daemons lives, else the record is stale and is dropped.
        local live=0 name pid
        while read -r name pid; do alive "$pid" "$name" && live=1; done <"$PIDS"
        if [ "$live" = 1 ]; then
            echo "slurm-local: a cluster still runs from $DIR ($PIDS); stop it first: bash scripts/slurm-local.sh stop $DIR" >&2
            exit 1
        fi
        echo "slurm-local: $PIDS is left from a cluster that no longer runs; starting afresh" >&2
        rm -f "$PIDS"
    fi
    trap 'stop_recorded' ERR INT TERM
    rm -rf "$DIR/munge" "$DIR/munge-key" "$DIR/state" "$DIR/spool" "$DIR/run" "$DIR/log"
    mkdir -p "$DIR/munge" "$DIR/munge-key" "$DIR/state" "$DIR/spool" "$DIR/run" "$DIR/log"
    chmod 755 "$DIR"
    : >"$PIDS"

    # munge: its own key (a private folder), socket, PID and log (a folder everyone may enter,
    # as munged requires of its socket's), owned by the munge user (munged refuses root).
    dd if=/dev/urandom of="$DIR/munge-key/munge.key" bs=1024 count=1 status=none
    chown -R munge:munge "$DIR/munge" "$DIR/munge-key"
    chmod 700 "$DIR/munge-key"
    chmod 400 "$DIR/munge-key/munge.key"
    chmod 755 "$DIR/munge"
    setpriv --reuid=munge --regid=munge --init-groups \
        munged --key-file="$DIR/munge-key/munge.key" --socket="$DIR/munge/munge.socket" \
        --pid-file="$DIR/munge/munged.pid" --log-file="$DIR/munge/munged.log" \
        --seed-file="$DIR/munge-key/munged.seed" </dev/null >>"$DIR/log/munged.out" 2>&1 || {
        echo "slurm-local: munged failed to start:" >&2
        cat "$DIR/log/munged.out" >&2
        false
    }
    wait_pidfile munged "$DIR/munge/munged.pid" "$DIR/munge/munged.log"

    local host cpus
    host=$(hostname -s)
    cpus=$(nproc)
    chown slurm:slurm "$DIR/state" "$DIR/log" "$DIR/run"
    cat >"$DIR/slurm.conf" <<EOF
# One-node test cluster written by scripts/slurm-local.sh; nothing here is for production.
ClusterName=csc-local
SlurmctldHost=$host(127.0.0.1)
SlurmUser=slurm
AuthType=auth/munge
AuthInfo=socket=$DIR/munge/munge.socket
CredType=cred/munge
StateSaveLocation=$DIR/state
SlurmdSpoolDir=$DIR/spool
SlurmctldPidFile=$DIR/run/slurmctld.pid
SlurmdPidFile=$DIR/run/slurmd.pid
SlurmctldLogFile=$DIR/log/slurmctld.log
SlurmdLogFile=$DIR/log/slurmd.log
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
SelectType=select/cons_tres
SelectTypeParameters=CR_Core
SchedulerType=sched/backfill
MpiDefault=none
ReturnToService=2
JobAcctGatherType=jobacct_gather/none
AccountingStorageType=accounting_storage/none
NodeName=$host NodeAddr=127.0.0.1 CPUs=$cpus State=UNKNOWN
PartitionName=local Nodes=ALL Default=YES MaxTime=INFINITE State=UP
EOF
    export SLURM_CONF=$DIR/slurm.conf
    slurmctld -c -i </dev/null >>"$DIR/log/slurmctld.out" 2>&1
    wait_pidfile slurmctld "$DIR/run/slurmctld.pid" "$DIR/log/slurmctld.log"
    slurmd </dev/null >>"$DIR/log/slurmd.out" 2>&1
    wait_pidfile slurmd "$DIR/run/slurmd.pid" "$DIR/log/slurmd.log"

    # up when the node is idle
    local state=""
    for _ in $(seq 1 60); do
        state=$(timeout 5 sinfo -h -N -o %t 2>/dev/null | head -n1 || true)
        [ "$state" = idle ] && break
        sleep 0.25
    done
    if [ "$state" != idle ]; then
        echo "slurm-local: the node is '${state:-unknown}', not idle, after 15 s; see $DIR/log/" >&2
        stop_recorded
        exit 1
    fi
    trap - ERR INT TERM
    echo "export SLURM_CONF=$DIR/slurm.conf"
}

case $cmd in
start) start ;;
stop) stop_recorded ;;
*)
    echo "usage: bash scripts/slurm-local.sh start|stop [DIR]" >&2
    exit 2
    ;;
esac
