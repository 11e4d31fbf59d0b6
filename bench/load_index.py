#!/usr/bin/env python3
"""bench/load_index.py — the load and index stages of `isocheck check` alone
(issue 37: the loader at 200 MB/s, history + index bytes per transaction).

Runs `BIN check -v --level LEVEL FILE` per binary, reads its stderr, and at
the `-v` line "load Xs  index Ys: ..." (printed once the index is built,
before any level's graph) samples the process from /proc (CPU user and
system, minor page faults, VmRSS, VmHWM) and kills it: nothing after the
index is run.  Binaries alternate (base first) REPS times; one row each.

  bench/load_index.py FILE BIN [BIN...]   [REPS=1] [LEVEL=si] [THREADS=]
"""
import os, signal, subprocess, sys

def sample(pid):
    with open(f"/proc/{pid}/stat") as f:
        st = f.read().rsplit(")", 1)[1].split()
    tick = os.sysconf("SC_CLK_TCK")
    # after the ")" field 3 is state: minflt is stat field 10, utime 14, stime 15
    minflt, majflt = int(st[7]), int(st[9])
    utime, stime = int(st[11]) / tick, int(st[12]) / tick
    mem = {}
    with open(f"/proc/{pid}/status") as f:
        for line in f:
            k, _, v = line.partition(":")
            if k in ("VmRSS", "VmHWM"):
                mem[k] = int(v.split()[0]) * 1024
    return minflt, majflt, utime, stime, mem.get("VmRSS", 0), mem.get("VmHWM", 0)

def run(binary, path, level, threads):
    cmd = [binary, "check", "-v", "--level", level, path]
    if threads:
        cmd[2:2] = ["--threads", threads]
    p = subprocess.Popen(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
    for line in p.stderr:
        if line.startswith("load ") and " index " in line:
            s = sample(p.pid)
            p.send_signal(signal.SIGKILL)
            p.wait()
            f = line.split()
            load, index = float(f[1].rstrip("s")), float(f[3].rstrip("s:"))
            txns = int(f[4])
            return load, index, txns, s
    p.wait()
    sys.exit(f"{binary}: no index line (exit {p.returncode})")

def main():
    if len(sys.argv) < 3:
        sys.exit(__doc__)
    path, bins = sys.argv[1], sys.argv[2:]
    reps, level = int(os.environ.get("REPS", "1")), os.environ.get("LEVEL", "si")
    threads = os.environ.get("THREADS", "")
    mb = os.path.getsize(path) / 1e6
    with open("/proc/loadavg") as f:
        print("load average before:", " ".join(f.read().split()[:3]))
    print(f"{path}: {mb:.0f} MB, --level {level}{' --threads ' + threads if threads else ''}")
    print("| binary | load s | MB/s | index s | user s | sys s | minor faults | RSS B/txn | peak B/txn |")
    print("|---|---|---|---|---|---|---|---|---|")
    for _ in range(reps):
        for b in bins:
            load, index, txns, (minflt, _, ut, stt, rss, hwm) = run(b, path, level, threads)
            print(f"| {b} | {load:.2f} | {mb / load:.0f} | {index:.2f} | {ut:.2f} | {stt:.2f} | "
                  f"{minflt / 1e6:.2f}M | {rss / txns:.0f} | {hwm / txns:.0f} |", flush=True)
    with open("/proc/loadavg") as f:
        print("load average after:", " ".join(f.read().split()[:3]))

main()
